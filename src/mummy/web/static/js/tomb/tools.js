// The Tomb's controls above the sheet: the dice row, what the chosen die (or item) can do
// now (its shapes, the room, digging, the Wand, defeats, ±1, discarding, orientations),
// and the buttons that need no die. `p` is the page (page.js): its ui state, its legal
// actions and its act(). A button is enabled exactly when the engine lists its action.
import { h } from "../dom.js";
import { findAction, notation, slotsOf, HELPER_NAME } from "./actions.js";
import { dieFace, miniShape } from "./draw.js";
import { undoButton } from "../session.js";

const MONSTER_NAME = { ooze: "ooze", skeleton: "skeleton", zombie: "zombie", mimic: "mimic", mummy: "the Mummy" };
const ITEM_NAME = { wand: "Wand", shovel: "Shovel" };
const coins = (n) => `${n} coin${n === 1 ? "" : "s"}`;

export function diceRow(p, sheet) {
  const ui = p.ui;
  const row = h("div", { class: "dice-row", id: "dice" });
  for (const d of sheet.dice.row) {
    const usable = p.mine() && !d.used && p.dieUsable(d.slot);
    row.append(h("button", { class: `die${ui.slot === d.slot ? " selected" : ""}${d.used ? " used" : ""}`, "data-slot": String(d.slot), "data-value": String(d.value), "data-source": d.source,
      disabled: !usable, "aria-pressed": String(ui.slot === d.slot), title: `slot ${d.slot}: ${d.value} (${d.source})${d.used ? ", used" : ""}`,
      onclick: () => p.pickSource(d.slot) },
    dieFace(d.value, { used: d.used }), h("span", { class: "die-label" }, `${d.slot}`, d.source !== "roll" ? h("small", {}, ` ${d.source}`) : null)));
  }
  if (sheet.dice.next_round.length) row.append(h("span", { class: "muted next" }, "next round: ", ...sheet.dice.next_round.map((v) => dieFace(v, { size: 22 }))));
  return row;
}

// The chosen die's two shapes (with their counts of legal placements), and the room.
function shapeButtons(p, box, die, acts) {
  const { ui, content } = p;
  for (const shape of content.table[die.value - 1]) {
    const n = p.placementsFor(shape).filter((a) => slotsOf(a).length === 1).length;
    box.append(h("button", { class: ui.tool && ui.tool.shape === shape && !ui.tool.slots ? "selected" : "", "data-shape": shape, disabled: n === 0,
      onclick: () => { p.chooseShape(shape); } }, miniShape(content.shapes[shape].orients.r0), ` ${shape} ${content.shapes[shape].name} (${n})`));
  }
  const pairs = new Map();
  for (const a of acts) if (a.kind === "place" && a.shape === "room") pairs.set(slotsOf(a).join("+"), slotsOf(a));
  for (const [pair, slots] of pairs) {
    box.append(h("button", { "data-shape": "room", "data-slots": pair, class: ui.tool && ui.tool.shape === "room" ? "selected" : "",
      onclick: () => { ui.tool = { kind: "place", shape: "room", slots }; ui.orient = "r0"; p.render(); } },
    miniShape(content.shapes.room.orients.r0), ` Room with dice ${pair}`));
  }
}

// Digging with the Shovel's function: the open sides first (the legal ones, in the
// rules' order), then the square.
function digRow(p, acts) {
  const { ui } = p;
  const digs = acts.filter((a) => a.kind === "dig");
  if (!digs.length) return null;
  const sidesList = p.rules.dig_sides.filter((s) => digs.some((a) => a.orient === s));
  return h("div", { class: "row dig-row" }, h("span", {}, "Dig (Shovel):"),
    ...sidesList.map((s) => h("button", { "data-dig": s, class: ui.tool && ui.tool.kind === "dig" && ui.tool.sides === s ? "selected" : "",
      onclick: () => { ui.tool = { kind: "dig", sides: s }; p.render(); } }, s.toUpperCase())));
}

// Everything else the chosen source can do: the Wand's functions, defeats, ±1, discard.
function otherButtons(p, box, acts) {
  const { ui } = p;
  for (const kind of ["erase", "add"]) {
    if (acts.some((a) => a.kind === kind)) {
      box.append(h("button", { "data-tool": kind, class: ui.tool && ui.tool.kind === kind ? "selected" : "", onclick: () => { ui.tool = { kind }; p.render(); } },
        kind === "erase" ? "Wand: erase a wall" : "Wand: add a wall"));
    }
  }
  for (const a of acts.filter((x) => x.kind === "defeat")) {
    const what = a.monster === "golem" ? `the ${a.colour} golem` : MONSTER_NAME[a.monster];
    box.append(h("button", { "data-action": a.text, onclick: () => p.act(a.text) },
      `Defeat ${what}${a.item ? ` (+${HELPER_NAME[a.item]})` : ""}`));
  }
  const costs = p.rules.costs;
  for (const [kind, label] of [["up", `+1 (${coins(costs.up)})`], ["down", `−1 (${coins(costs.down)})`], ["discard", "Discard this die"]]) {
    const a = acts.find((x) => x.kind === kind);
    if (a || kind !== "discard") {
      box.append(h("button", { "data-action": a ? a.text : notation({ kind, ...p.source() }), disabled: !a, onclick: () => a && p.act(a.text) }, label));
    }
  }
}

// The orientations of the chosen shape, each with its count of legal placements.
function orientRow(p) {
  const { ui, content } = p;
  const orients = p.orientsFor(ui.tool.shape);
  const counts = Object.fromEntries(orients.map((o) => [o, p.placementsFor(ui.tool.shape).filter((a) => a.orient === o).length]));
  return h("div", { class: "row orient-row" }, h("span", {}, "Orientation:"),
    ...orients.map((o) => h("button", { "data-orient": o, "aria-pressed": String(o === ui.orient), onclick: () => { ui.orient = o; p.render(); } },
      miniShape(content.shapes[ui.tool.shape].orients[o]), ` ${o} (${counts[o]})`)),
    h("button", { id: "rotate", onclick: () => p.rotate(1), title: "Rotate (R)" }, "⟳ Rotate ", h("span", { class: "kbd" }, "R")),
    h("button", { id: "flip", onclick: () => p.flip(), title: "Flip (F)" }, "⇋ Flip ", h("span", { class: "kbd" }, "F")));
}

export function toolButtons(p, sheet) {
  const { ui } = p;
  const acts = p.sourceActions();
  const box = h("div", { class: "tools", id: "tools" });
  if (ui.slot === null) {
    box.append(h("p", { class: "muted" }, p.mine() ? `Choose a die (keys 1–${p.rules.row_size}) or an item, then what to do with it.` : "Watching."));
    return box;
  }
  const rowDie = typeof ui.slot === "number" ? sheet.dice.row.find((d) => d.slot === ui.slot) : null;
  if (rowDie) shapeButtons(p, box, rowDie, acts);
  const dig = digRow(p, acts);
  if (dig) box.append(dig);
  otherButtons(p, box, acts);
  if (ui.tool && ui.tool.kind === "place") {
    box.append(orientRow(p));
    box.append(h("p", { class: "muted hint" }, "Green squares are where the tile's top-left square may go. Point to preview, click (or Enter) to place; Esc to cancel."));
  }
  return box;
}

// The buttons that need no die: buying or choosing a die, opening a sarcophagus, the items
// as sources, undo, and ending the round (or the game, after the last round).
export function globalButtons(p, sheet) {
  const { ui, legal } = p;
  const btn = (want, label, id, attrs = {}) => {
    const a = findAction(legal, want);
    const text = a ? a.text : notation(want);
    return h("button", { id, "data-action": text, ...attrs, disabled: !a, onclick: () => p.act(text) }, label);
  };
  const items = ["wand", "shovel"].map((item) => {
    const n = legal.filter((a) => a.item === item).length;
    return h("button", { "data-source": item, class: ui.slot === item ? "selected" : "", disabled: n === 0,
      onclick: () => p.pickSource(item) }, `Use the ${ITEM_NAME[item]}`);
  });
  const costs = p.rules.costs;
  const values = p.content.table.map((_, i) => i + 1); // a row of the Tile Table per die value
  const choose = h("span", { class: "choose" }, `Choose a die (${coins(costs.choose)}): `,
    ...values.map((v) => btn({ kind: "choose", value: v }, String(v), `buy${v}`)));
  return h("div", { class: "global row" },
    btn({ kind: "buy" }, `Buy a die (${coins(costs.buy)})`, "buy"), choose,
    btn({ kind: "open" }, "Open a sarcophagus (key)", "open"), btn({ kind: "open", item: "skey" }, "Open with the Skeleton Key", "open-skey"),
    ...items,
    undoButton(p.view, (t) => p.act(t)),
    btn({ kind: "end" }, sheet.phase === "after" ? "Finish the game" : "End the round", "end", { class: "primary" }));
}
