// The legend: every picture on the game pages with its meaning. Each picture is drawn by
// the game's own drawing code (js/tomb/draw.js, js/treasure/symbols.js), given a tiny map
// or sheet that holds just that thing, so the legend cannot show something the game does
// not draw.
import { h, svg } from "../dom.js";
import { CELL, MARGIN, cellRect, dieFace, drawSheet } from "../tomb/draw.js";
import { SYMBOLS, glyph } from "../treasure/symbols.js";
import { inline } from "./markdown.js";

const EMPTY_SHEET = { player: 0, name: "", covered: {}, tiles: [], findings: [], rooms: [], entrances: [],
  passages: [], walls: [], open_openings: [] };

// A `w` × `hgt` map holding `map` (its findings, rooms, stone, entrances), with `sheet`
// drawn on it, as the game draws a sheet (small: no coordinates).
function mini(meaning, { w = 1, hgt = 1, map = {}, sheet = null, extra = null } = {}) {
  const m = { title: "", width: w, height: hgt, stone: [], findings: [], rooms: [], entrances: [], ...map };
  const drawn = drawSheet(m, sheet ? { ...EMPTY_SHEET, ...sheet } : null, { small: true, label: meaning });
  if (extra) drawn.layers.targets.append(...extra);
  drawn.root.setAttribute("aria-hidden", "true");
  drawn.root.removeAttribute("role");
  drawn.root.style.width = `${(w * CELL + 2 * MARGIN) * 1.2}px`;
  return drawn.root;
}

// A legend entry: the picture, its name and its meaning (with the rules it rests on).
function entry(key, picture, name, meaning) {
  return h("li", { class: "legend-item", "data-legend": key },
    h("span", { class: "legend-picture" }, picture),
    h("span", { class: "legend-text" }, h("strong", {}, name), " ", inline(meaning)));
}

const chip = (text, cls) => h("span", { class: `legend-chip ${cls || ""}` }, text);
const covered = (...squares) => Object.fromEntries(squares.map((s) => [s, 1]));

function mapEntries() {
  return [
    entry("free", mini("a free square"), "Free square", "Sand to explore: a tile may cover it (T1.1)."),
    entry("stone", mini("stone", { map: { stone: ["A1"] } }), "Stone", "Solid rock: no tile ever covers it (T1.1)."),
    entry("entrance", mini("an entrance", { map: { entrances: [{ edge: "A1n", side: "N" }] } }), "Entrance (white arrow)",
      "A way into the tomb on the map's edge. Your first tile must have an opening on one (T3.2). Still open at the end: −3 points (T7)."),
    entry("entrance-connected", mini("the start", { map: { entrances: [{ edge: "A1n", side: "N" }] },
      sheet: { covered: covered("A1"), entrances: [{ edge: "A1n", state: "connected", start: true }] } }),
    "Connected entrance (green; S = your start)", "A tile's opening lies on it. 2, 3 or 4 connected entrances score 5, 15 or 30 (T7)."),
    entry("entrance-closed", mini("a closed entrance", { map: { entrances: [{ edge: "A1n", side: "N" }] },
      sheet: { covered: covered("A1"), walls: ["A1n"], entrances: [{ edge: "A1n", state: "closed", start: false }] } }),
    "Closed entrance (black)", "A tile's wall lies on it: no penalty, no points (T1.6)."),
    entry("sarcophagus", mini("a room with a sarcophagus", { hgt: 2, map: { stone: ["A1"], rooms: [{ square: "A1", finding: "sarcophagus", opening: "A2n" }] } }),
      "Room with a sarcophagus", "Its opening is the dashed edge; a tile opening onto it circles the sarcophagus (T3.4). A key opens it and frees a zombie to defeat with a 3 (T5.4, T5.3)."),
    entry("gem", mini("rooms with gems", { w: 4, hgt: 2, map: { stone: ["A1", "B1", "C1", "D1"],
      rooms: ["red", "blue", "green", "yellow"].map((colour, i) => ({ square: `${"ABCD"[i]}1`, finding: "gem", colour, opening: `${"ABCD"[i]}2n` })) } }),
    "Room with a gem (R B G Y)", "Connect its opening to circle the gem; it lets you defeat the golem of its colour (T5.3)."),
  ];
}

function findingEntries() {
  const one = (finding) => ({ map: { findings: [{ square: "A1", ...finding }] } });
  return [
    entry("coins", mini("coins", one({ kind: "coins", amount: 3 })), "Coins (the number: how many)",
      "Collected when a tile covers them (T3.4, T5.2). 1 coin turns a die up or down, 2 roll a new die, 3 write a die of your choice (T4.3)."),
    entry("key", mini("a key", one({ kind: "key" })), "Key", "Opens a sarcophagus, or is spent with a 5 to defeat a mimic (T5.4, T5.3)."),
    entry("ooze", mini("an ooze", one({ kind: "ooze" })), "Ooze", "Defeat it with a 1; then its skeleton with a 2 (T5.3)."),
    entry("golem", mini("golems", { w: 4, map: { findings: ["red", "blue", "green", "yellow"].map((colour, i) => ({ square: `${"ABCD"[i]}1`, kind: "golem", colour })) } }),
      "Golem (R B G Y)", "Defeat it with a 4 once the gem of its colour is circled too (T5.3)."),
    entry("mimic", mini("a mimic", one({ kind: "mimic" })), "Mimic", "Defeat it with a 5 and a key (T5.3)."),
    entry("items", mini("magic items", { w: 4, map: { findings: ["wand", "shovel", "hammer", "skeleton-key"].map((item, i) => ({ square: `${"ABCD"[i]}1`, kind: "item", item })) } }),
      "Magic items: W Wand, S Shovel, H Hammer, K Skeleton Key", "Three uses each, 5 points each at the end (T6, T7)."),
    entry("collected", mini("a collected finding", { ...one({ kind: "coins", amount: 3 }), sheet: { covered: covered("A1"), findings: [{ square: "A1" }] } }),
      "Collected (faded, ticked)", "Already yours: it is on your tracks or in the Monster Log (T5.2)."),
  ];
}

function drawingEntries() {
  const target = cellRect(0, 0, { fill: "rgba(0,158,115,0.22)", stroke: "#009e73", "stroke-width": 2.5 });
  const dot = svg("circle", { cx: MARGIN + CELL / 2, cy: MARGIN + CELL / 2, r: 4, fill: "#009e73" });
  const ok = cellRect(1, 0, { fill: "rgba(0,114,178,0.45)", stroke: "#0072b2", "stroke-width": 2 });
  const bad = cellRect(2, 0, { fill: "url(#bad)", stroke: "#d55e00", "stroke-width": 2 });
  return [
    entry("tile", mini("a tile", { w: 2, sheet: { covered: covered("A1", "B1"), tiles: [{ n: 1, shape: "1a", squares: ["A1", "B1"] }],
      walls: ["A1n", "B1n", "A1s", "B1s"], open_openings: ["A1w", "B1e"] } }),
    "Your tile (sand, thick walls, its number)", "Walls are drawn thick; a wall never goes on an edge that already has one (T3.3)."),
    entry("opening", mini("an open opening", { w: 2, sheet: { covered: covered("A1"), walls: ["A1n", "A1s", "A1w"], open_openings: ["A1e"] } }),
      "Open opening (orange dashes, ring)", "Where your dungeon can grow: the next tile must put an opening here (T3.2). Each one still open at the end costs 3 points (T7)."),
    entry("passage", mini("a passage", { w: 2, sheet: { covered: covered("A1", "B1"), walls: ["A1n", "B1n", "A1s", "B1s", "A1w", "B1e"], passages: ["A1e"] } }),
      "Passage", "Two tiles joined through their openings (T1.6)."),
    entry("dug", mini("a dug square", { sheet: { covered: covered("A1"), tiles: [{ n: 1, shape: "dig", squares: ["A1"] }], walls: ["A1n", "A1w", "A1s"], open_openings: ["A1e"] } }),
      "Dug square (dotted)", "A one-square tile dug with the Shovel or a die (T6.3, T6.4)."),
    entry("targets", mini("where a tile may go", { w: 3, extra: [target, dot, ok, bad] }),
      "Green: may go here · blue: your tile here is legal · hatched orange: it is not",
      "With a tile chosen, the green squares are where its top-left square may go; pointing shows the tile (T3)."),
  ];
}

function panelEntries() {
  return [
    entry("die", h("span", {}, dieFace(5), " ", dieFace(2, { used: true })), "Dice (a used die is grey)",
      "Each die is used once a round, for a tile, a defeat, or the Wand or the Shovel (T4.2)."),
    entry("marks", h("span", {}, chip("✓", "ok")), "Tile Table mark",
      "The shape was placed once. Both shapes of a row: a bonus die of 7 − the row (T2.4); a whole column: a key."),
    entry("log", h("span", {}, chip("·"), " ", chip("◯", "circled"), " ", chip("✕", "defeated")), "Monster Log: not found, circled, defeated",
      "A defeat pays the coins written under its box and raises the Mummy's alert (T5.5)."),
    entry("alerts", h("span", {}, chip("△"), chip("▲", "bad")), "The Mummy's alerts",
      "Every 3 defeats unlock a box for a hit on the Mummy with a 6, worth (21 − round) × 1, 2 or 3 (T5.6)."),
  ];
}

// The Tomb's legend, in groups.
export function tombLegend() {
  const group = (title, entries) => h("div", { class: "legend-group" }, h("h4", {}, title), h("ul", { class: "legend" }, entries));
  return h("div", { class: "legend-tomb" },
    group("The map", mapEntries()), group("What lies on it", findingEntries()),
    group("What you draw", drawingEntries()), group("Beside the map", panelEntries()));
}

// Mummy's Treasure's legend: the six symbols, and the dice as the page shows them.
export function treasureLegend() {
  const symbols = Object.entries(SYMBOLS).map(([letter, s]) => entry(`sym-${letter}`,
    h("span", { class: "legend-glyph" }, glyph(letter)), `${s.name} (${letter})`, "one face of every die (R1.1)."));
  return h("div", { class: "legend-treasure" },
    h("div", { class: "legend-group" }, h("h4", {}, "The dice's symbols"), h("ul", { class: "legend" }, symbols)),
    h("div", { class: "legend-group" }, h("h4", {}, "On the table"), h("ul", { class: "legend" },
      entry("held", chip("HELD", "held"), "A held die", "Kept aside: a reroll throws only the other dice (R3.1)."),
      entry("needs", h("span", { class: "legend-glyph" }, glyph("S"), glyph("S"), glyph("A")), "What a tile needs",
        "The symbols you must show on the dice to take it, one die each: SSA is a pair of Scarabs and an Ankh (R3.3)."),
      entry("odds", chip("54%", "ok"), "Chance", "The exact chance to show the symbols this turn with the best rerolls; the fraction on hover (R6)."))));
}
