// Pictures and words that explain the Tomb's pieces: a tile in one orientation drawn with
// its walls and its open sides (the same marks as on the sheet: thick brown walls, dashed
// orange openings), a dug square with its open sides, and every finding and orientation in
// plain words, for buttons and the sheet's tooltips.
import { svg } from "../dom.js";

const SIDE = { N: "north", E: "east", S: "south", W: "west" };
const STEP = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
const TURN = { 0: "as printed", 1: "turned a quarter right", 2: "turned upside down", 3: "turned a quarter left" };

// An orientation ("r0".."f3") in words.
export function orientWords(orient) {
  const turn = TURN[Number(orient[1])];
  return orient[0] === "f" ? `flipped over, then ${turn === "as printed" ? "not turned" : turn}` : turn;
}

// Its open sides in words ("opens north and east"), from the orientation's openings.
export function openingsWords(openings) {
  const names = [...new Set(openings.map(([, , side]) => SIDE[side]))];
  if (!names.length) return "no opening";
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return `${openings.length} opening${openings.length === 1 ? "" : "s"} (${list})`;
}

// A dig's sides ("ne") as openings of the dug square.
export const digOpenings = (sides) => sides.split("").map((s) => [0, 0, s.toUpperCase()]);

// The outline of some squares: each outer side as a wall or an opening. Used by the
// pictures and by the sheet's preview, so both draw a piece the same way.
// Returns [{x, y, side, open}] in the cells' own coordinates.
export function outline(cells, openings) {
  const inside = new Set(cells.map(([x, y]) => `${x},${y}`));
  const open = new Set(openings.map(([x, y, side]) => `${x},${y},${side}`));
  const out = [];
  for (const [x, y] of cells) {
    for (const side of ["N", "E", "S", "W"]) {
      const [dx, dy] = STEP[side];
      if (inside.has(`${x + dx},${y + dy}`)) continue;
      out.push({ x, y, side, open: open.has(`${x},${y},${side}`) });
    }
  }
  return out;
}

// The line of a square's side, in a grid of `size` pixels with its origin at (ox, oy).
export function sideLine(x, y, side, size, ox = 0, oy = 0) {
  const X = ox + x * size;
  const Y = oy + y * size;
  return { N: [X, Y, X + size, Y], S: [X, Y + size, X + size, Y + size], W: [X, Y, X, Y + size], E: [X + size, Y, X + size, Y + size] }[side];
}

// A piece drawn small: sand squares, brown walls, orange openings. `orient` is
// {cells, openings} as in the content; `label` becomes its tooltip.
export function piecePicture(orient, { size = 11, label = "" } = {}) {
  const xs = orient.cells.map((c) => c[0]);
  const ys = orient.cells.map((c) => c[1]);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  const pad = 3;
  const w = (Math.max(...xs) - minX + 1) * size + pad * 2;
  const hgt = (Math.max(...ys) - minY + 1) * size + pad * 2;
  const ox = pad - minX * size;
  const oy = pad - minY * size;
  const pic = svg("svg", { viewBox: `0 0 ${w} ${hgt}`, width: w, height: hgt, class: "piece", "aria-hidden": "true" },
    label ? svg("title", {}, label) : null,
    ...orient.cells.map(([x, y]) => svg("rect", { x: ox + x * size, y: oy + y * size, width: size, height: size, fill: "#f1dfb4", stroke: "#e0cc9c", "stroke-width": 0.6 })));
  for (const e of outline(orient.cells, orient.openings)) {
    const [x1, y1, x2, y2] = sideLine(e.x, e.y, e.side, size, ox, oy);
    pic.append(e.open
      ? svg("line", { x1, y1, x2, y2, stroke: "#e69f00", "stroke-width": 3, "stroke-dasharray": "2 1.5", class: "open" })
      : svg("line", { x1, y1, x2, y2, stroke: "#3b2f1e", "stroke-width": 2, "stroke-linecap": "square", class: "wall" }));
  }
  return pic;
}

const ITEM_WORDS = { wand: "the Wand", shovel: "the Shovel", hammer: "the Hammer", "skeleton-key": "the Skeleton Key" };

// A finding on the map in plain words (the sheet's tooltips).
export function findingWords(f) {
  switch (f.kind || f.finding) {
    case "coins": return `${f.amount} coin${f.amount === 1 ? "" : "s"}: covering this square adds them to your coin track`;
    case "key": return "A key: opens a sarcophagus, and a mimic needs one to be defeated";
    case "ooze": return "An ooze: a monster; once found, a 1 defeats it";
    case "golem": return `The ${f.colour} golem: once found, a 4 defeats it if the ${f.colour} gem is found too`;
    case "mimic": return "A mimic: once found, a 5 and a key defeat it";
    case "item": return `${ITEM_WORDS[f.item] || f.item}: a magic item with 3 uses`;
    case "sarcophagus": return "A sarcophagus room: connect its opening to find it; a key opens it (a zombie wakes)";
    case "gem": return `The ${f.colour} gem room: connect its opening to find it; it lets a 4 defeat the ${f.colour} golem`;
    default: return String(f.kind || f.finding);
  }
}
