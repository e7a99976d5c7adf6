// Hints in a practice game (docs/analysis.md §6): the Hint button asks the server for the
// strongest bot's plan from where the player stands (POST /api/games/{id}/hint), to the end
// of the round or a bought die, and the sheet shows it as the page previews a piece (plan.js):
// each tile numbered in order; the panel under the buttons tells each step in words.
//
// Only a solo game's player gets the button, never in a daily challenge. A game that would
// rank (a secret seed, no hint yet) asks first: a hint makes it a practice game, off the
// boards for good; the server refuses it otherwise (409 ranked). The plan stays while the
// player follows it (each of its steps played drops out), and goes at any other move.
import { ApiError, api, errorText } from "../api.js";
import { h } from "../dom.js";
import { bulb } from "../par.js";
import { drawPlan } from "./plan.js";
import { confirmWarnings } from "./warn.js";

// Whether this page may offer a hint: the seat of a solo game still running, not a daily one
// (nor the tutorial's game, led step by step by its own coach).
export function hintable(p) {
  const v = p.view;
  return p.mine() && !p.coach && !v.over && !v.daily && v.seats.length === 1; // the tutorial has its own coach
}

// Whether a hint now would take the game off the boards (the player is asked first).
const wouldRank = (v) => !v.config.hints && !v.config.seed_chosen;

export function hintButton(p) {
  if (!hintable(p)) return null;
  const n = p.view.config.hints || 0;
  return h("button", { type: "button", id: "hint", class: p.hint ? "selected" : "", disabled: !!p.hinting,
    title: "What the strongest bot would play now (a hint makes this a practice game, not on the best scores)",
    "aria-pressed": p.hint ? "true" : "false", onclick: () => toggleHint(p) },
  bulb(), p.hinting ? " Thinking…" : ` Hint${n ? ` (${n} taken)` : ""}`);
}

async function toggleHint(p) {
  if (p.hint) {
    p.hint = null;
    p.render();
    return;
  }
  if (wouldRank(p.view) && !(await confirmWarnings([{ code: "ranked",
    message: "This game would be on the best scores. A hint makes it a practice game: it will never be ranked." }],
  { title: "Take a hint?", confirm: "Take a hint" }))) return;
  await askHint(p, true);
}

async function askHint(p, practice) {
  p.hinting = true;
  p.render();
  try {
    const answer = await api(`/api/games/${encodeURIComponent(p.view.id)}/hint`, { method: "POST", token: p.live.token, body: { practice } });
    p.hint = answer.version === p.view.version ? { ...answer, round: p.view.state.round } : null;
    p.view.config.hints = answer.hints;
    if (!p.hint) p.say("The game moved on while the hint was worked out: ask again.", "info");
  } catch (error) {
    p.say(error instanceof ApiError ? errorText(error) : `No hint: ${errorText(error)}`, "error");
  } finally {
    p.hinting = false;
    p.render();
  }
}

// The hint after a new view: its steps the player has played drop out; any other move
// (or a new round) takes it away.
export function followHint(p, view) {
  const hint = p.hint;
  if (!hint || hint.version === view.version) return;
  const played = (view.log || []).filter((e) => e.version > hint.version && e.seat === view.you).map((e) => e.text);
  const later = (view.log || []).some((e) => e.version > hint.version && e.seat !== view.you);
  const followed = !later && played.length > 0 && played.every((t, i) => t === hint.actions[i]) && played.length < hint.actions.length;
  if (!followed || view.state.round !== hint.round) {
    p.hint = null;
    return;
  }
  for (const key of ["actions", "json", "sentences"]) hint[key] = hint[key].slice(played.length);
  hint.version = view.version;
}

// The plan on the sheet's hint layer (drawn again with every drawing of the sheet).
export function drawHint(p, map) {
  const layer = p.sheetLayers && p.sheetLayers.hint;
  if (!layer) return;
  layer.replaceChildren(...(p.hint ? [drawPlan(p.content, map, p.hint.json, "better")] : []));
}

// The plan in words, under the buttons.
export function hintPanel(p) {
  const hint = p.hint;
  if (!hint) return null;
  return h("section", { class: "hint-panel", id: "hint-panel", "aria-label": "Hint" },
    h("p", { class: "hint-title" }, bulb(), ` The ${hint.bot} bot would play${hint.effort === "full" ? "" : ` (a ${hint.effort} search)`}:`),
    h("ol", {}, hint.sentences.map((s, i) => h("li", { "data-action": hint.actions[i] }, s))),
    h("p", { class: "muted small" }, "Numbered on your sheet. Follow it, or play your own way: the hint goes at any other move."));
}
