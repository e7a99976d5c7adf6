// The tutorial's controls, as on the game page: the round's dice, the chosen die's two
// shapes, the shape's orientations (each drawn by the game's drawing code), the coins'
// free actions and "End round". The control the coach wants next is marked (`next`).
import { h } from "../dom.js";
import { dieFace, miniShape } from "../tomb/draw.js";

const mark = (key, next) => (key === next ? " next-move" : "");

function diceRow(t, sheet, next, on) {
  return h("div", { class: "tutorial-tools dice", id: "dice", role: "group", "aria-label": "Your dice this round" },
    h("p", { class: "label" }, h("strong", {}, `Round ${sheet.round}: your dice`)),
    ...sheet.dice.row.map((d) => h("button", {
      type: "button", class: `die${d.used ? " used" : ""}${t.ui.slot === d.slot ? " selected" : ""}${d.slot === t.step.move.dice?.[0] ? mark("die", next) : ""}`,
      "data-slot": String(d.slot), "data-value": String(d.value), "aria-pressed": t.ui.slot === d.slot ? "true" : "false",
      "aria-label": `slot ${d.slot}: a ${d.value}${d.source === "bonus" ? " (bonus)" : d.source === "choose" || d.source === "buy" ? " (bought)" : ""}${d.used ? ", used" : ""}`,
      onclick: () => on.die(d.slot),
    }, dieFace(d.value, { used: d.used }), h("span", { class: "die-label" }, `${d.slot}`))),
    sheet.dice.next_round.length ? h("span", { class: "muted" }, `next round: ${sheet.dice.next_round.join(", ")}`) : null);
}

function shapeRow(t, next, on) {
  if (t.ui.slot === null) return null;
  const value = t.view.state.sheets[t.view.you].dice.row.find((d) => d.slot === t.ui.slot).value;
  return h("div", { class: "tutorial-tools shapes", id: "tools", role: "group", "aria-label": "Shapes" },
    h("p", { class: "label" }, `A ${value} places one of these (T2.2):`),
    ...t.content.table[value - 1].map((shape) => h("button", {
      type: "button", "data-shape": shape, class: shape === t.step.move.shape ? mark("shape", next) : "",
      "aria-pressed": t.ui.shape === shape ? "true" : "false", onclick: () => on.shape(shape),
    }, miniShape(t.content.shapes[shape].orients.r0, 9), ` ${t.content.shapes[shape].name} (${shape})`)));
}

function orientRow(t, next, on) {
  if (!t.ui.shape) return null;
  const orients = t.content.shapes[t.ui.shape].orients;
  return h("div", { class: "tutorial-tools orients", role: "group", "aria-label": "Orientations" },
    h("p", { class: "label" }, "Turned or flipped (white marks are its openings):"),
    ...Object.keys(orients).map((o) => h("button", {
      type: "button", "data-orient": o, class: o === t.step.move.orient && t.ui.shape === t.step.move.shape ? mark("orient", next) : "",
      "aria-pressed": t.ui.orient === o ? "true" : "false", "aria-label": `orientation ${o}`, onclick: () => on.orient(o),
    }, miniShape(orients[o], 9))));
}

function coinRow(t, sheet, next, on) {
  const coins = sheet.tracks.coins;
  return h("div", { class: "tutorial-tools coins", role: "group", "aria-label": "Coins" },
    h("p", { class: "label" }, h("strong", { "data-coins": String(coins) }, `Coins: ${coins}`),
      " — 2 coins roll a new die, 3 coins choose its value (T4.3)"),
    h("button", { type: "button", id: "buy", onclick: () => on.buy() }, "Roll (2)"),
    h("span", {}, "Choose (3):"),
    ...[1, 2, 3, 4, 5, 6].map((v) => h("button", {
      type: "button", "data-choose": String(v), "aria-label": `Choose a ${v} (3 coins)`,
      class: t.step.move.kind === "choose" && t.step.move.value === v ? mark("choose", next) : "",
      onclick: () => on.choose(v),
    }, String(v))));
}

// Every control, for the step and the sheet as they stand; `on` has the handlers.
export function tutorialTools(t, sheet, next, on) {
  return h("div", { class: "tutorial-controls" },
    diceRow(t, sheet, next, on), shapeRow(t, next, on), orientRow(t, next, on), coinRow(t, sheet, next, on),
    h("div", { class: "tutorial-tools" },
      h("button", { type: "button", id: "end-round", class: mark("end", next), onclick: () => on.end() }, "End round")));
}
