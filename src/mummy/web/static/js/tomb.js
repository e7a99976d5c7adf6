// The Mummy's Tomb in the browser: the sheet as SVG, the round's dice, the tracks, and
// every action chosen by clicking or by keys. The engine on the server is the judge: the
// page lights up what the view's legal actions (`view.actions`, as data) allow, and
// anything else it sends is answered with the engine's refusal (rule id and message),
// which is shown; nothing is lost.
//
// The modules: tomb/page.js the game page (its state, drawing, keys), tomb/board.js the
// sheet as a board (targets, preview, clicks), tomb/tools.js the dice and the controls,
// tomb/panels.js the panels beside the sheet, tomb/draw.js the SVG drawing, and
// tomb/actions.js the legal actions as data.
import { rulesOf } from "./constants.js";
import { h, loadStylesheet } from "./dom.js";
import { dieFace, drawSheet } from "./tomb/draw.js";
import { drawPlan } from "./tomb/plan.js";
import { backpack, phaseName, scoreTable } from "./tomb/panels.js";
import { mount as mountPage } from "./tomb/page.js";
import { ensureMaps, mapsOfView } from "./maps.js";
import { count } from "./games.js";

// How a seat's final result reads (js/games.js): its score; every Tomb game ends after
// its last round, so there is no line on how it ended.
export function outcome(result, i, words) { return count(result.scores[i], words?.units.total); }
export function why() { return null; }

// The game page: drawn at once when the content has the game's map, else once the map's
// drawing has come (a generated or a custom map: js/maps.js).
export function mount(root, live, content, options = {}) {
  const ids = mapsOfView(live.view);
  if (ids.every((id) => content.maps[id])) return mountPage(root, live, content, options);
  root.replaceChildren(h("p", { class: "panel loading-map" }, "Loading the map…"));
  return ensureMaps(content, ids).then(() => {
    root.replaceChildren();
    return mountPage(root, live, content, options);
  });
}

// A read-only picture of a snapshot (the replay page): every sheet with its tracks and score.
export { renderTombState as renderState };
export function renderTombState(root, state, content, opts = {}) {
  loadStylesheet("/static/css/tomb.css");
  const rules = rulesOf("tomb", content);
  const names = opts.names || [];
  const ids = state.sheets.map((s) => s.map);
  if (!ids.every((id) => content.maps[id])) { // drawn once the maps' drawings have come (js/maps.js)
    ensureMaps(content, ids).then(() => renderTombState(root, state, content, opts));
    return;
  }
  root.replaceChildren(h("div", { class: "tomb-replay" },
    h("p", { class: "round-line" }, `Round ${state.round} of ${rules.rounds} · dice `, ...state.dice.map((v) => dieFace(v, { size: 22 }))),
    ...state.sheets.map((sheet, i) => {
      const map = content.maps[sheet.map];
      return h("section", { class: "panel sheet-panel", "data-sheet": String(i) },
        h("h2", {}, `${names[i] || sheet.name} — ${sheet.score.total} points`, h("span", { class: "badge" }, phaseName(sheet.phase, rules))),
        h("div", { class: "sheet-wrap" }, drawSheet(map, sheet, { label: `${sheet.name}'s sheet` }).root),
        h("div", { class: "side-by-side" }, backpack(sheet, map, rules), scoreTable(sheet.score, content)));
    })));
}

// A review's move (its actions as data) drawn over a seat's sheet of renderTombState, as the
// game page previews a piece (tomb/plan.js): `look` "better" (the better move) or "chosen"
// (the player's own). How many of its actions were drawn.
export function drawMoveOn(root, seat, actions, content, state, look = "better") {
  const layer = root.querySelector(`section[data-sheet="${seat}"] svg.sheet g.hint-layer`);
  const map = content.maps[state.sheets[seat].map];
  if (!layer || !map) return 0;
  const plan = drawPlan(content, map, actions, look);
  layer.replaceChildren(plan);
  return Number(plan.dataset.steps);
}
