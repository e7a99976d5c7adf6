// The tutorial, /tutorial: the rulebook's First Round Example on Map 1 (T9), played by the
// player on a real game. The page creates an ordinary game on the seed whose round 1 rolls
// the example's two 5s (GET /api/tutorial says which, with the steps), and for each step
// says what to do next and why, citing the rules. The example's move is sent to the server
// like any move; a move the example does not make is explained and not taken: a legal one
// is not sent, an illegal one is sent and the engine's refusal, with its rule, is shown
// (the engine changes nothing). At the end the game goes on, as the player's own.
import { ApiError, api, content, errorText } from "./api.js";
import { $, asset, h } from "./dom.js";
import { judgeBuy, judgeChoose, judgeDie, judgeEnd, judgeShape, nextMove } from "./learn/coach.js";
import { inline, ruleTexts } from "./learn/markdown.js";
import { drawTargets, tutorialSheet } from "./learn/tboard.js";
import { tutorialTools } from "./learn/ttools.js";
import { textFor } from "./tomb/actions.js";
import { tileTable } from "./tomb/panels.js";
import { rulesOf } from "./constants.js";

const freshUi = () => ({ slot: null, shape: null, orient: null, cursor: null });
const t = { script: null, content: null, map: null, rules: {}, game: null, view: null, index: 0, step: null,
  ui: freshUi(), wrong: "", after: "", busy: false };
window.mummyTutorial = t; // for tests and the curious

function clientId() {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// Sends an action; true when the game took it. A refusal is shown with its rule.
async function send(text) {
  t.busy = true;
  try {
    const body = { client_id: clientId(), version: t.view.version, action: text };
    const answer = await api(`/api/games/${encodeURIComponent(t.game.id)}/actions`, { method: "POST", body, token: t.game.token });
    t.view = answer.state;
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.error && error.status === 422) {
      t.wrong = `The game refuses this move: ${errorText(error)}. Nothing changed.`;
    } else {
      t.wrong = `Something went wrong: ${errorText(error)}`;
    }
    return false;
  } finally {
    t.busy = false;
  }
}

// The example's move: sent, and the next step begins.
async function take(text) {
  if (t.busy) return;
  if (await send(text)) {
    t.after = t.step.after;
    t.index += 1;
    t.step = t.script.steps[t.index] || null;
    t.ui = freshUi();
    t.wrong = "";
  }
  render();
}

function explain(judged, then) {
  if (judged.wrong) { t.wrong = judged.wrong; render(); return; }
  t.wrong = "";
  then();
  render();
}

// A square clicked with a tile chosen: the example's place is taken; another legal place
// is explained; an illegal one goes to the engine, which refuses it with its rule.
function onSquare(square) {
  const { ui } = t;
  if (!t.step || t.busy) return;
  if (t.step.move.kind !== "place" || !ui.shape || !ui.orient) {
    t.wrong = `First: ${nextMove(t).text}`;
    render();
    return;
  }
  const want = { kind: "place", dice: [ui.slot], shape: ui.shape, orient: ui.orient, square };
  const text = textFor(t.view.actions, want);
  if (text === t.step.move.text) { take(text); return; }
  if (t.view.actions.some((a) => a.text === text)) { t.wrong = t.step.other; render(); return; }
  send(text).then(render);
}

const handlers = {
  die: (slot) => explain(judgeDie(t, slot), () => { t.ui = { ...freshUi(), slot: judgeDie(t, slot).slot }; }),
  shape: (shape) => explain(judgeShape(t, shape), () => { t.ui = { ...t.ui, shape, orient: "r0" }; }),
  orient: (orient) => explain({}, () => { t.ui = { ...t.ui, orient }; }),
  choose: (value) => explain(judgeChoose(t, value), () => take(t.step.move.text)),
  buy: () => explain(judgeBuy(t), () => {}),
  end: () => explain(judgeEnd(t), () => take(t.step.move.text)),
};

// The rules a step cites, each with its text, linked to the rules page.
function cited(step) {
  return h("details", { class: "cited-rules" }, h("summary", {}, `The rules behind it: ${step.rules.join(", ")}`),
    h("ul", { class: "cited" }, step.rules.map((id) => h("li", { "data-rule": id },
      h("a", { href: `/rules#${id}`, target: "_blank", rel: "noopener" }, id), " ", t.rules[id] ? inline(t.rules[id]) : ""))));
}

function coach(sheet) {
  const step = t.step;
  const next = nextMove(t);
  return h("aside", { class: "panel coach", id: "coach", "aria-labelledby": "coach-title" },
    h("p", { class: "step-count muted", id: "step-count" }, `Step ${t.index + 1} of ${t.script.steps.length}`),
    h("h2", { id: "coach-title" }, step.title),
    h("p", { class: "after", id: "coach-after", role: "status" }, t.after ? ["Done. ", ...inline(t.after)] : ""),
    h("p", { class: "plan", id: "coach-plan" }, step.do),
    h("p", { class: "do", id: "coach-do", "data-next": next.key }, h("span", { class: "sr-only" }, "Next: "), next.text),
    h("p", { class: "wrong", id: "coach-wrong", role: "alert" }, t.wrong ? inline(t.wrong) : ""),
    tutorialTools(t, sheet, next.key, handlers),
    h("p", { class: "why" }, h("strong", {}, "Why: "), inline(step.why)),
    cited(step));
}

function finished(sheet) {
  const invite = `/play/${encodeURIComponent(t.game.id)}#token=${encodeURIComponent(t.game.token)}`;
  return h("aside", { class: "panel coach tutorial-end", id: "coach", "aria-labelledby": "coach-title" },
    h("h2", { id: "coach-title" }, "You played the rulebook's first round"),
    h("p", { class: "after", role: "status" }, "Done. ", inline(t.after)),
    h("p", {}, `Round ${sheet.round} is yours to play: ${sheet.dice.row.map((d) => d.value).join(", ")} in your row. `
      + "Each round, use every die: place tiles from your open openings, collect what they cover, and defeat monsters when you hold the right die (and a key for a mimic). "
      + "After 20 rounds the score counts monsters, the Mummy's hits, items and entrances, less 3 for every opening left open (T7)."),
    h("div", { class: "row" },
      h("a", { class: "button primary", id: "play-on", href: invite }, "Play this game on"),
      h("a", { class: "button", href: "/" }, "Start a new game"),
      h("a", { class: "button", href: "/rules" }, "Read the rules"),
      h("a", { class: "button", href: "/tutorial" }, "Start the tutorial again")));
}

function render() {
  const sheet = t.view.state.sheets[t.view.you];
  const app = $("app");
  const board = h("section", { class: "panel tutorial-board", "aria-label": "Your sheet, Map 1" }, tutorialSheet(t, sheet, onSquare));
  const table = h("section", { class: "panel tutorial-table", "aria-labelledby": "table-title" },
    h("h3", { id: "table-title" }, "Tile Table"), h("p", { class: "muted" }, "A die places a shape of its row; a ✓ marks a shape placed once (T2.3)."),
    tileTable(sheet, t.content, rulesOf("tomb", t.content)));
  app.replaceChildren(h("div", { class: "tutorial-layout" }, board, t.step ? coach(sheet) : finished(sheet), table));
  app.dataset.step = String(t.index);
  app.dataset.ready = t.step ? "yes" : "done";
  drawTargets(t);
}

async function main() {
  try {
    const [script, tomb, rulesMd] = await Promise.all([api("/api/tutorial"), content("tomb"),
      fetch(asset("/static/rules/tomb.md")).then((r) => (r.ok ? r.text() : ""))]);
    Object.assign(t, { script, content: tomb, map: tomb.maps[script.create.map], rules: ruleTexts(rulesMd), step: script.steps[0] });
    const created = await api("/api/games", { method: "POST", body: { ...script.create, seats: [{ name: "You" }] } });
    t.game = { id: created.id, token: created.seats[0].token };
    t.view = await api(`/api/games/${encodeURIComponent(t.game.id)}`, { token: t.game.token });
    render();
  } catch (error) {
    $("app").replaceChildren(h("div", { class: "panel error-page" }, h("h2", {}, "The tutorial cannot start"),
      h("p", { class: "message error" }, errorText(error)), h("p", {}, h("a", { href: "/" }, "Back to the start page"))));
  }
}

main();
