// The Tomb's controls beside the sheet: the dice row, a compact bar of what the chosen die
// (or item) can do now (its shapes, the room, digging, the Wand, defeats, ±1, discarding,
// the orientations as pictures), and the buttons that need no die. `p` is the page
// (page.js): its ui state, its legal actions and its act(). A button is enabled exactly
// when the engine lists its action.
import { h } from "../dom.js";
import { findAction, notation, slotsOf, HELPER_NAME } from "./actions.js";
import { actionAt } from "./board.js";
import { hintButton } from "./hint.js";
import { dieFace } from "./draw.js";
import { touchScreen } from "./layout.js";
import { digOpenings, openingsWords, orientWords, piecePicture } from "./pictures.js";
import { undoButton } from "../session.js";

const MONSTER_NAME = { ooze: "ooze", skeleton: "skeleton", zombie: "zombie", mimic: "mimic", mummy: "the Mummy" };
const ITEM_NAME = { wand: "Wand", shovel: "Shovel" };
const coins = (n) => `${n} coin${n === 1 ? "" : "s"}`;
const key = (k) => (touchScreen() ? null : h("span", { class: "kbd" }, k));

export function diceRow(p, sheet, rolled = false) {
  const ui = p.ui;
  const row = h("div", { class: `dice-row${rolled ? " rolled" : ""}`, id: "dice" });
  for (const d of sheet.dice.row) {
    const usable = p.mine() && !d.used && p.dieUsable(d.slot);
    const words = `Die ${d.slot}: a ${d.value}${d.source !== "roll" ? ` (${d.source})` : ""}${d.used ? ", used" : usable ? "" : ", no use now"}`;
    row.append(h("button", { class: `die${ui.slot === d.slot ? " selected" : ""}${d.used ? " used" : ""}`, "data-slot": String(d.slot), "data-value": String(d.value), "data-source": d.source,
      disabled: !usable, "aria-pressed": String(ui.slot === d.slot), title: words, "aria-label": words,
      onclick: () => p.pickSource(d.slot) },
    dieFace(d.value, { used: d.used }), h("span", { class: "die-label" }, touchScreen() ? "" : `${d.slot}`, d.source !== "roll" ? h("small", {}, ` ${d.source}`) : null)));
  }
  if (sheet.dice.next_round.length) row.append(h("span", { class: "muted next" }, "next round: ", ...sheet.dice.next_round.map((v) => dieFace(v, { size: 22 }))));
  return row;
}

// The chosen die's two shapes (with their counts of legal places), and the room.
function shapeButtons(p, die, acts) {
  const { ui, content } = p;
  const box = h("div", { class: "row shapes" });
  for (const shape of content.table[die.value - 1]) {
    const s = content.shapes[shape];
    const n = p.placementsFor(shape).filter((a) => slotsOf(a).length === 1).length;
    const words = `The ${s.name} (${shape}): ${n} place${n === 1 ? "" : "s"} to draw it`;
    box.append(h("button", { class: ui.tool && ui.tool.shape === shape && !ui.tool.slots ? "selected shape" : "shape", "data-shape": shape, disabled: n === 0,
      title: words, "aria-label": words, onclick: () => p.chooseShape(shape) }, piecePicture(s.orients.r0, { size: 8 }), ` ${s.name} `, h("span", { class: "count" }, String(n))));
  }
  const pairs = new Map();
  for (const a of acts) if (a.kind === "place" && a.shape === "room") pairs.set(slotsOf(a).join("+"), slotsOf(a));
  for (const [pair, slots] of pairs) {
    box.append(h("button", { "data-shape": "room", "data-slots": pair, class: ui.tool && ui.tool.shape === "room" ? "selected shape" : "shape",
      title: `A room (2×2), spending dice ${slots.join(" and ")}`, onclick: () => p.chooseShape("room", slots) },
    piecePicture(content.shapes.room.orients.r0, { size: 8 }), ` Room (dice ${slots.join("+")})`));
  }
  return box;
}

// Digging with the Shovel's function: the open sides first (each drawn as the dug square
// with its walls and openings), then the square.
function digRow(p, acts) {
  const { ui } = p;
  const digs = acts.filter((a) => a.kind === "dig");
  if (!digs.length) return null;
  const sidesList = p.rules.dig_sides.filter((s) => digs.some((a) => a.orient === s));
  return h("div", { class: "row dig-row pictures" }, h("span", { class: "label" }, "Dig a square open to:"),
    ...sidesList.map((s) => {
      const words = `Dig one square with ${openingsWords(digOpenings(s))}, walls on its other sides`;
      return h("button", { "data-dig": s, class: ui.tool && ui.tool.kind === "dig" && ui.tool.sides === s ? "selected pic" : "pic", title: words, "aria-label": words,
        onclick: () => p.setTool({ kind: "dig", sides: s }) }, piecePicture({ cells: [[0, 0]], openings: digOpenings(s) }, { size: 18 }));
    }));
}

// A ±1 coin's button, with how many uses the die would have after it when the server's
// preview has said (warn.js); asked once the die is chosen, so shown before paying.
function coinButton(p, kind, a, cost) {
  const sign = kind === "up" ? "+1" : "−1";
  const die = p.view.state.sheets[p.mine() ? p.view.you : 0].dice.row.find((d) => d.slot === p.ui.slot);
  const sides = p.content.table.length; // 6+1 = 1 and 1−1 = 6 (T4.3)
  const to = die ? ((die.value - 1 + (kind === "up" ? 1 : -1) + sides) % sides) + 1 : null;
  let uses = "";
  if (a) {
    const seen = p.previews.peek(a.text);
    if (seen === undefined) p.previews.fetchOnce(a.text, (v) => { if (v && p.ui.slot !== null) p.render(); });
    else if (seen && seen.uses_after >= 0) uses = ` · ${seen.uses_after} use${seen.uses_after === 1 ? "" : "s"}`;
  }
  return h("button", { "data-action": a ? a.text : notation({ kind, ...p.source() }), disabled: !a, class: "coin",
    title: `Pay ${coins(cost)} to make this die ${to ?? "?"}${uses ? `: then it has${uses.slice(2)}` : ""}`,
    onclick: () => a && p.act(a.text) }, `${sign}${to ? ` → ${to}` : ""} (${coins(cost)})`, uses ? h("span", { class: "uses", "data-uses": uses.replace(/\D/g, "") }, uses) : null);
}

// Everything else the chosen source can do: the Wand's functions, defeats, ±1, discard.
function otherButtons(p, acts) {
  const { ui } = p;
  const box = h("div", { class: "row others" });
  for (const kind of ["erase", "add"]) {
    if (acts.some((a) => a.kind === kind)) {
      box.append(h("button", { "data-tool": kind, class: ui.tool && ui.tool.kind === kind ? "selected" : "", onclick: () => p.setTool({ kind }) },
        kind === "erase" ? "Wand: erase a wall" : "Wand: add a wall"));
    }
  }
  for (const a of acts.filter((x) => x.kind === "defeat")) {
    const what = a.monster === "golem" ? `the ${a.colour} golem` : MONSTER_NAME[a.monster];
    box.append(h("button", { "data-action": a.text, onclick: () => p.act(a.text) },
      `Defeat ${what}${a.item ? ` (+${HELPER_NAME[a.item]})` : ""}`));
  }
  const costs = p.rules.costs;
  if (typeof ui.slot === "number") {
    box.append(coinButton(p, "up", acts.find((x) => x.kind === "up"), costs.up), coinButton(p, "down", acts.find((x) => x.kind === "down"), costs.down));
  }
  const discard = acts.find((x) => x.kind === "discard");
  if (discard) box.append(h("button", { "data-action": discard.text, onclick: () => p.act(discard.text) }, "Discard this die"));
  return box;
}

// The orientations of the chosen shape as pictures (open sides marked), each with its
// count of legal places; then turning and flipping.
function orientRow(p) {
  const { ui, content } = p;
  const shape = content.shapes[ui.tool.shape];
  const orients = p.orientsFor(ui.tool.shape);
  const counts = Object.fromEntries(orients.map((o) => [o, p.placementsFor(ui.tool.shape).filter((a) => a.orient === o).length]));
  return h("div", { class: "row orient-row pictures" },
    ...orients.map((o) => {
      const words = `${shape.name} ${orientWords(o)}, ${openingsWords(shape.orients[o].openings)}: ${counts[o]} place${counts[o] === 1 ? "" : "s"}`;
      return h("button", { "data-orient": o, class: counts[o] ? "pic" : "pic none", "aria-pressed": String(o === ui.orient), title: words, "aria-label": words,
        onclick: () => p.setOrient(o) }, piecePicture(shape.orients[o], { size: 9 }), h("span", { class: "count" }, String(counts[o])));
    }),
    orients.length > 1 ? h("button", { id: "rotate", onclick: () => p.rotate(1), title: "Turn a quarter right (R)", "aria-label": "Turn a quarter right" }, "⟳", key("R")) : null,
    orients.length > 1 ? h("button", { id: "flip", onclick: () => p.flip(), title: "Flip over (F)", "aria-label": "Flip over" }, "⇋", key("F")) : null);
}

// What a tap chose, waiting for a second tap or this button.
function placeRow(p) {
  const { ui } = p;
  if (!ui.armed || !ui.tool || !["place", "dig"].includes(ui.tool.kind)) return null;
  return h("div", { class: "row place-row" },
    h("button", { id: "place-here", class: "primary", onclick: () => { const t = actionAt(p, ui.armed); if (t) p.act(t); } },
      `${ui.tool.kind === "dig" ? "Dig" : "Place"} at ${ui.armed}`),
    h("button", { id: "place-cancel", onclick: () => { ui.armed = null; p.render(); } }, "Cancel"));
}

function hint(p) {
  const { ui } = p;
  if (!ui.tool) return null;
  const touch = touchScreen();
  const words = {
    place: touch ? "Green squares: where the piece may go (its dot marks the top-left square). Tap one to preview, tap again or Place to draw it."
      : "Green squares: where the piece may go (its dot marks the top-left square). Point to preview, click (or Enter) to draw it; Esc to go back.",
    dig: touch ? "Tap a green square to preview the dug square, tap again or Dig to dig it." : "Point to a green square to preview the dug square, click to dig it.",
    erase: "Choose a highlighted wall to erase.", add: "Choose a highlighted edge to draw a wall on.",
  }[ui.tool.kind];
  return h("p", { class: "muted hint" }, words);
}

export function toolButtons(p, sheet) {
  const { ui } = p;
  const acts = p.sourceActions();
  const box = h("div", { class: "tools", id: "tools" });
  if (ui.slot === null) {
    box.append(h("p", { class: "muted" }, touchScreen() ? "Choose a die or an item, then what to do with it."
      : `Choose a die (keys 1–${p.rules.row_size}) or an item, then what to do with it.`));
    return box;
  }
  const rowDie = typeof ui.slot === "number" ? sheet.dice.row.find((d) => d.slot === ui.slot) : null;
  box.append(h("p", { class: "chosen" }, rowDie ? `Die ${rowDie.slot} (a ${rowDie.value}):` : `The ${ITEM_NAME[ui.slot]}:`));
  if (rowDie) box.append(shapeButtons(p, rowDie, acts));
  box.append(...[digRow(p, acts), otherButtons(p, acts)].filter(Boolean));
  if (ui.tool && ui.tool.kind === "place") box.append(orientRow(p));
  const place = placeRow(p); // after the orientations: a tap on the map moves none of them
  if (place) box.append(place);
  const tip = hint(p);
  if (tip) box.append(tip);
  return box;
}

// What a die of each value could do now ({"1": n, ...}: its tiles' places and its defeats,
// the server's preview `by_value`, warn.js), to show on the buy-a-value buttons before a
// coin is paid; asked (once a version) when such a die can be bought, null until known.
function valueCounts(p) {
  const known = p.previews.byValue();
  if (known) return known;
  const a = p.legal.find((x) => x.kind === "choose");
  if (a) p.previews.fetchOnce(a.text, (v) => { if (v && v.by_value) p.render(); });
  return null;
}

// The buttons that need no die: buying or choosing a die, opening a sarcophagus, the items
// as sources, undo, and ending the round (or the game, after the last round).
export function globalButtons(p, sheet) {
  const { ui, legal } = p;
  // Why the round cannot end yet, in words (T4.4), for the disabled button's tooltip.
  const endBlocked = (row) => {
    const unused = row.dice.row.filter((d) => !d.used).map((d) => d.slot);
    return unused.length ? `Use or discard ${unused.length > 1 ? "dice" : "die"} ${unused.join(" and ")} first (T4.4)` : "Not your turn";
  };
  const btn = (want, label, id, attrs = {}) => {
    const a = findAction(legal, want);
    const text = a ? a.text : notation(want);
    return h("button", { id, "data-action": text, ...attrs, disabled: !a, onclick: () => p.act(text) }, label);
  };
  const items = ["wand", "shovel"].map((item) => {
    const n = legal.filter((a) => a.item === item).length;
    return n || sheet.tracks.items[item].found ? h("button", { "data-source": item, class: ui.slot === item ? "selected" : "", disabled: n === 0,
      onclick: () => p.pickSource(item) }, `Use the ${ITEM_NAME[item]}`) : null;
  });
  const costs = p.rules.costs;
  const values = p.content.table.map((_, i) => i + 1); // a row of the Tile Table per die value
  const counts = valueCounts(p);
  const choose = h("div", { class: "choose row" }, h("span", { class: "label" }, `Buy a die of your choice (${coins(costs.choose)})${counts ? "; uses now" : ""}:`),
    ...values.map((v) => {
      const n = counts ? counts[String(v)] : undefined;
      const uses = n === undefined ? "" : `: ${n} place${n === 1 ? "" : "s"} or defeat${n === 1 ? "" : "s"} for a ${v} now`;
      return btn({ kind: "choose", value: v }, [String(v), n === undefined ? null : h("span", { class: "uses", "data-uses": String(n) }, String(n))], `buy${v}`,
        { title: `Buy a ${v} for ${coins(costs.choose)}${uses}`, "aria-label": `Buy a ${v} for ${coins(costs.choose)}${uses}` });
    }));
  return h("div", { class: "global" },
    h("div", { class: "row" }, btn({ kind: "buy" }, `Buy a die (${coins(costs.buy)})`, "buy", { title: "Roll one more die for this round" }),
      btn({ kind: "open" }, "Open a sarcophagus (key)", "open"),
      findAction(legal, { kind: "open", item: "skey" }) ? btn({ kind: "open", item: "skey" }, "Open with the Skeleton Key", "open-skey") : null,
      ...items),
    choose,
    h("div", { class: "row end-row" }, undoButton(p.view, (t) => p.act(t)), hintButton(p),
      btn({ kind: "end" }, sheet.phase === "after" ? "Finish the game" : "End the round", "end",
        { class: "primary", title: findAction(legal, { kind: "end" }) ? null : endBlocked(sheet) })));
}
