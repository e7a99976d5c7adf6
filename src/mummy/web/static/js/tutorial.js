// The tutorial, /tutorial: the rulebook's First Round Example on Map 1 (T9), played by the
// player on a real game, on the game page's own board and controls (js/tomb/page.js: the
// same map, dice, buttons, pictures and words as every Tomb game), with a coach on top.
// GET /api/tutorial gives the seed whose round 1 rolls the example's two 5s, and the steps.
//
// The game is created once and kept in this browser (localStorage: its id and seat token);
// a reload resumes it, and "Start again" makes a fresh one. The coach (js/learn/coach.js)
// reads from the game's state how far the example has come, says what to do next and why,
// citing the rules, and marks the control to use; the game page asks it before a die or a
// shape is chosen and before a move is sent (mount's `coach` option). A move the example
// does not make is explained and not taken: a legal one is not sent, an illegal one is sent
// and the engine's refusal, with its rule, is shown (the engine changes nothing). At the
// end the game goes on, as the player's own.
import { LiveGame, api, content, errorText } from "./api.js";
import { $, asset, h, parseSquare, svg } from "./dom.js";
import { judgeAct, judgePick, nextMove, progress, stepDice } from "./learn/coach.js";
import { inline, ruleTexts } from "./learn/markdown.js";
import { CELL, MARGIN } from "./tomb/draw.js";
import { touchScreen } from "./tomb/layout.js";
import { mount } from "./tomb/page.js";

//: Where this browser keeps its tutorial game: {id, token, seed}.
const KEY = "mummy.tutorial";

const t = {
  script: null, content: null, rules: {}, game: null, live: null, page: null,
  index: null, // the step at hand (steps.length once the example is played)
  wrong: "", after: "", box: null, why: null, whyStep: null, shown: null,
  get view() { return this.live && this.live.view; },
};
window.mummyTutorial = t; // for tests and the curious

function kept() {
  try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch { return null; }
}

function keep(game) {
  try { localStorage.setItem(KEY, JSON.stringify(game)); } catch { /* resumed only while the page stays open */ }
}

// "Start again": the kept game is forgotten, and the page loads with a fresh one.
function startAgain() {
  try { localStorage.removeItem(KEY); } catch { /* nothing kept */ }
  location.reload();
}

const sheetOf = (view) => view.state.sheets[view.you];
const step = () => t.script.steps[t.index] || null;

// The kept game, connected, if it is still there and is this tutorial's; else null.
async function resume(script) {
  const game = kept();
  if (!game || game.seed !== script.create.seed || !game.id || !game.token) return null;
  const live = new LiveGame(game.id, game.token);
  try {
    const view = await live.connect();
    if (view.you !== 0 || view.game !== script.create.game) throw new Error("not this tutorial's game");
    return { game, live };
  } catch {
    live.close();
    return null;
  }
}

async function fresh(script) {
  const created = await api("/api/games", { method: "POST", body: { ...script.create, seats: [{ name: "You" }] } });
  const game = { id: created.id, token: created.seats[0].token, seed: script.create.seed };
  keep(game);
  const live = new LiveGame(game.id, game.token);
  await live.connect();
  return { game, live };
}

// A choice judged: taken (true), or not, and why said where it is seen.
function judged(wrong) {
  t.wrong = wrong || "";
  if (!wrong) return true;
  drawCoach();
  const said = $("coach-wrong");
  const box = said && said.getBoundingClientRect();
  if (box && (box.top < 0 || box.bottom > window.innerHeight)) said.scrollIntoView({ block: "nearest" });
  return false;
}

// -- the coach, as the game page asks it ----------------------------------------------------
const coach = {
  pick(kind, value) {
    return step() ? judged(judgePick(kind, value, step(), sheetOf(t.view), t.content)) : true;
  },
  allow(text, action) {
    return step() ? judged(judgeAct(text, action, step(), sheetOf(t.view), t.content)) : true;
  },
  refused(text, error) {
    t.wrong = `The game refuses this move: ${errorText(error)}. Nothing changed.`;
  },
  drawn(page) {
    t.page = page;
    const now = progress(t.script.steps, sheetOf(page.view));
    if (now !== t.index) {
      // A step done (or, on a reload, the last one done before it): say what it did.
      t.after = now > 0 && (t.index === null || now > t.index) ? t.script.steps[now - 1].after : "";
      t.wrong = "";
      t.index = now;
    }
    drawCoach();
  },
};

// The rules a step cites, each with its text, linked to the rules page.
function cited(s) {
  return h("ul", { class: "cited" }, s.rules.map((id) => h("li", { "data-rule": id },
    h("a", { href: `/rules#${id}`, target: "_blank", rel: "noopener" }, id), " ", t.rules[id] ? inline(t.rules[id]) : "")));
}

const restart = () => h("button", { type: "button", id: "restart", class: "restart", title: "Forget this tutorial game and play the example from its first move", onclick: startAgain }, "Start again");

function stepPanel(s, next) {
  return [
    h("div", { class: "coach-head" }, h("p", { class: "step-count muted", id: "step-count" }, `Tutorial · step ${t.index + 1} of ${t.script.steps.length}`), restart()),
    h("h2", { id: "coach-title" }, s.title),
    h("p", { class: "after", id: "coach-after", role: "status" }, t.after ? ["Done. ", ...inline(t.after)] : ""),
    h("p", { class: "do", id: "coach-do", "data-next": next.key }, h("strong", {}, "Next: "), next.text),
    h("p", { class: "wrong", id: "coach-wrong", role: "alert" }, t.wrong ? inline(t.wrong) : ""),
  ];
}

// The step's whole move and why, with the rules it rests on: at the top of the panels'
// column (drawn again only when the step changes, so that its folding stays as it is).
function whyPanel(s) {
  return h("section", { class: "panel coach-why", id: "coach-why", "aria-labelledby": "coach-why-title" },
    h("h2", { id: "coach-why-title" }, "The move, and why"),
    h("p", { class: "plan", id: "coach-plan" }, inline(s.do)),
    h("p", { class: "why" }, h("strong", {}, "Why: "), inline(s.why)),
    h("details", { class: "cited-rules", open: !touchScreen() }, h("summary", {}, `The rules behind it: ${s.rules.join(", ")}`), cited(s)));
}

function endPanel(sheet) {
  const invite = `/play/${encodeURIComponent(t.game.id)}#token=${encodeURIComponent(t.game.token)}`;
  return [
    h("div", { class: "coach-head" }, h("p", { class: "step-count muted" }, "Tutorial · done"), restart()),
    h("h2", { id: "coach-title" }, "You played the rulebook's first round"),
    t.after ? h("p", { class: "after", id: "coach-after", role: "status" }, "Done. ", inline(t.after)) : null,
    h("p", {}, `Round ${sheet.round} is yours to play, here or on the game page. `
      + "Each round, use every die: place tiles from your open openings, collect what they cover, and defeat monsters when you hold the right die (and a key for a mimic). "
      + "After 20 rounds the score counts monsters, the Mummy's hits, items and entrances, less 3 for every opening left open (T7)."),
    h("div", { class: "row" },
      h("a", { class: "button primary", id: "play-on", href: invite }, "Play this game on"),
      h("a", { class: "button", href: "/" }, "Start a new game"),
      h("a", { class: "button", href: "/rules", target: "_blank", rel: "noopener" }, "Read the rules")),
  ];
}

// The control the coach wants next, ringed; the example's square, ringed on the map.
function markNext(page, s, next) {
  const layout = page.els.layout;
  for (const el of layout.querySelectorAll(".next-move")) el.classList.remove("next-move");
  const m = s.move;
  const found = {
    die: () => stepDice(s, sheetOf(page.view)).map((d) => layout.querySelector(`#dice [data-slot="${d.slot}"]`)),
    shape: () => [layout.querySelector(`#tools [data-shape="${m.shape}"]`)],
    orient: () => [layout.querySelector(`#tools [data-orient="${m.orient}"]`)],
    confirm: () => [layout.querySelector("#place-here")],
    choose: () => [layout.querySelector(`#buy${m.value}`)],
    end: () => [layout.querySelector("#end")],
    square: () => [],
  }[next.key]();
  for (const el of found) if (el) el.classList.add("next-move");
  const shown = `${t.index}:${next.key}`;
  if (shown !== t.shown) {
    t.shown = shown; // brought into view once, when the coach asks for it: never against the player's scrolling
    const first = found.find(Boolean);
    if (first && next.key !== "confirm") reveal(first); // a tapped square's preview stays in view
  }
  const layer = exampleLayer(page);
  if (layer && (next.key === "square" || next.key === "confirm")) {
    const [x, y] = parseSquare(m.square);
    layer.append(svg("rect", { x: MARGIN + x * CELL - 3, y: MARGIN + y * CELL - 3, width: CELL + 6, height: CELL + 6, rx: 4,
      fill: "none", stroke: "#d55e00", "stroke-width": 4, class: "example-target", "data-example": m.square }));
  }
}

// A control scrolled into view if it is not (its column scrolls on its own, under the
// coach, which stays at its top: learn.css).
function reveal(el) {
  const column = el.closest(".tomb-controls");
  if (column && t.box.parentNode === column) column.style.scrollPaddingTop = `${t.box.offsetHeight + 8}px`;
  el.scrollIntoView({ block: "nearest" });
}

// A drawing over the sheet, of its size (learn.css), for the example's square: the sheet
// itself is the game page's, brought up to date in place by it (draw.js patchDrawing), so
// nothing of the tutorial's is drawn into it.
function exampleLayer(page) {
  const board = page.els.board;
  const sheet = board.querySelector("#sheet");
  if (!sheet) return null;
  let layer = board.querySelector(":scope > svg.example-layer");
  if (!layer) {
    layer = svg("svg", { class: "sheet example-layer", "aria-hidden": "true", focusable: "false" });
    board.append(layer);
  }
  layer.setAttribute("viewBox", sheet.getAttribute("viewBox"));
  layer.replaceChildren();
  return layer;
}

function drawCoach() {
  const page = t.page;
  if (!page) return;
  const s = step();
  const sheet = sheetOf(page.view);
  const next = s ? nextMove(s, page.ui, sheet, t.content, touchScreen()) : null;
  t.box.className = `panel coach${s ? "" : " tutorial-end"}`;
  t.box.replaceChildren(...(s ? stepPanel(s, next) : endPanel(sheet)).filter(Boolean));
  if (t.whyStep !== t.index) {
    t.why = s ? whyPanel(s) : null;
    t.whyStep = t.index;
  }
  // The panels' column is the game page's, redrawn by it: the panel is put back after each
  // drawing, last (so the page's own panels keep their places), and shown first (learn.css).
  const side = page.els.side;
  for (const old of side.querySelectorAll(":scope > .coach-why")) if (old !== t.why) old.remove();
  if (t.why && t.why.parentNode !== side) side.append(t.why);
  if (s) markNext(page, s, next);
  const app = $("app");
  app.dataset.step = String(t.index);
  app.dataset.ready = s ? "yes" : "done";
}

async function main() {
  const app = $("app");
  try {
    const [script, tomb, rulesMd] = await Promise.all([api("/api/tutorial"), content("tomb"),
      fetch(asset("/static/rules/tomb.md")).then((r) => (r.ok ? r.text() : ""))]);
    Object.assign(t, { script, content: tomb, rules: ruleTexts(rulesMd) });
    const { game, live } = (await resume(script)) || (await fresh(script));
    Object.assign(t, { game, live });
    t.box = h("section", { class: "panel coach", id: "coach", "aria-labelledby": "coach-title" });
    app.replaceChildren();
    const page = mount(app, live, tomb, { coach });
    page.els.layout.querySelector(".tomb-controls").prepend(t.box);
    drawCoach();
  } catch (error) {
    app.replaceChildren(h("div", { class: "panel error-page" }, h("h2", {}, "The tutorial cannot start"),
      h("p", { class: "message error" }, errorText(error)),
      h("p", {}, h("button", { type: "button", onclick: startAgain }, "Start again"), " ", h("a", { href: "/" }, "Back to the start page"))));
  }
}

main();
