// Treasure's tiles drawn as the treasures they are (R1.3): an amulet on its cord, a rolled
// scroll, a dagger, a chest, a sphinx statue and a mummy's sarcophagus, each drawn to its
// tile's size (a cell is 20 units), in plain SVG with classes and attributes only (the
// page's Content Security Policy allows no inline style). The symbols the tile needs can
// be drawn in its corner. Colours come from treasure.css (.art-*), shapes from here.
import { svg } from "../dom.js";
import { glyph } from "./symbols.js";

const U = 20; // one cell of a tile, in the drawing's units

const p = (d, cls) => svg("path", { d, class: cls });
const rect = (x, y, w, hgt, cls, r = 0) => svg("rect", { x, y, width: w, height: hgt, rx: r, class: cls });
const circle = (cx, cy, r, cls) => svg("circle", { cx, cy, r, class: cls });
const ellipse = (cx, cy, rx, ry, cls) => svg("ellipse", { cx, cy, rx, ry, class: cls });

// Each treasure drawn lying as listed (w = cols × U wide, ht = rows × U high).
const DRAW = {
  amulet: (w, ht) => [ // a gold pendant with a blue stone, hanging from its cord
    p(`M${w * 0.2} ${ht * 0.08} Q${w / 2} ${ht * 0.55} ${w * 0.8} ${ht * 0.08}`, "art-cord"),
    circle(w / 2, ht * 0.58, Math.min(w, ht) * 0.3, "art-gold"),
    circle(w / 2, ht * 0.58, Math.min(w, ht) * 0.16, "art-stone"),
    circle(w / 2, ht * 0.27, Math.min(w, ht) * 0.06, "art-gold"),
  ],
  scroll: (w, ht) => [ // papyrus between two rolled ends, with lines of writing
    rect(w * 0.12, ht * 0.2, w * 0.76, ht * 0.6, "art-paper"),
    rect(w * 0.05, ht * 0.12, w * 0.1, ht * 0.76, "art-roll", 3),
    rect(w * 0.85, ht * 0.12, w * 0.1, ht * 0.76, "art-roll", 3),
    ...[0.36, 0.5, 0.64].map((y) => p(`M${w * 0.22} ${ht * y} H${w * 0.78}`, "art-ink")),
  ],
  dagger: (w, ht) => [ // blade to the right, cross-guard, grip and pommel
    p(`M${w * 0.36} ${ht * 0.38} L${w * 0.95} ${ht / 2} L${w * 0.36} ${ht * 0.62} Z`, "art-blade"),
    p(`M${w * 0.38} ${ht / 2} L${w * 0.9} ${ht / 2}`, "art-ink"),
    rect(w * 0.3, ht * 0.18, w * 0.06, ht * 0.64, "art-gold", 2),
    rect(w * 0.1, ht * 0.4, w * 0.2, ht * 0.2, "art-grip", 2),
    circle(w * 0.08, ht / 2, ht * 0.14, "art-gold"),
  ],
  chest: (w, ht) => [ // a domed lid over a box, iron bands and a lock
    p(`M${w * 0.1} ${ht * 0.42} V${ht * 0.32} Q${w / 2} ${ht * 0.02} ${w * 0.9} ${ht * 0.32} V${ht * 0.42} Z`, "art-wood"),
    rect(w * 0.1, ht * 0.42, w * 0.8, ht * 0.46, "art-wood"),
    rect(w * 0.22, ht * 0.12, w * 0.08, ht * 0.76, "art-band"),
    rect(w * 0.7, ht * 0.12, w * 0.08, ht * 0.76, "art-band"),
    rect(w * 0.43, ht * 0.36, w * 0.14, ht * 0.18, "art-gold", 2),
    circle(w / 2, ht * 0.46, ht * 0.025, "art-dark"),
  ],
  statue: (w, ht) => [ // a sphinx lying on its plinth, head in the striped headdress
    rect(w * 0.05, ht * 0.8, w * 0.9, ht * 0.12, "art-plinth"),
    p(`M${w * 0.1} ${ht * 0.8} V${ht * 0.55} Q${w * 0.12} ${ht * 0.4} ${w * 0.3} ${ht * 0.42} H${w * 0.62} V${ht * 0.8} Z`, "art-sandstone"),
    rect(w * 0.62, ht * 0.7, w * 0.3, ht * 0.1, "art-sandstone", 3),
    p(`M${w * 0.58} ${ht * 0.62} L${w * 0.6} ${ht * 0.2} Q${w * 0.7} ${ht * 0.06} ${w * 0.8} ${ht * 0.2} L${w * 0.82} ${ht * 0.62} Z`, "art-nemes"),
    ...[0.3, 0.42, 0.54].map((y) => p(`M${w * 0.6} ${ht * y} H${w * 0.65} M${w * 0.75} ${ht * y} H${w * 0.81}`, "art-stripe")),
    ellipse(w * 0.7, ht * 0.34, w * 0.05, ht * 0.13, "art-face"),
    p(`M${w * 0.69} ${ht * 0.47} h${w * 0.02} v${ht * 0.12} h-${w * 0.02} Z`, "art-gold"),
  ],
  sarcophagus: (w, ht) => [ // a mummy-shaped coffin: headdress and face at the left, arms crossed
    p(`M${w * 0.06} ${ht / 2} Q${w * 0.06} ${ht * 0.1} ${w * 0.2} ${ht * 0.1} L${w * 0.88} ${ht * 0.25} Q${w * 0.96} ${ht / 2} ${w * 0.88} ${ht * 0.75}`
      + ` L${w * 0.2} ${ht * 0.9} Q${w * 0.06} ${ht * 0.9} ${w * 0.06} ${ht / 2} Z`, "art-gold"),
    p(`M${w * 0.08} ${ht / 2} Q${w * 0.08} ${ht * 0.16} ${w * 0.2} ${ht * 0.16} L${w * 0.28} ${ht * 0.2} V${ht * 0.8}`
      + ` L${w * 0.2} ${ht * 0.84} Q${w * 0.08} ${ht * 0.84} ${w * 0.08} ${ht / 2} Z`, "art-nemes"),
    ...[0.3, 0.7].map((y) => p(`M${w * 0.1} ${ht * y} H${w * 0.27}`, "art-stripe")),
    ellipse(w * 0.17, ht / 2, w * 0.05, ht * 0.2, "art-face"),
    p(`M${w * 0.34} ${ht * 0.3} L${w * 0.46} ${ht * 0.7} M${w * 0.34} ${ht * 0.7} L${w * 0.46} ${ht * 0.3}`, "art-arms"),
    ...[0.56, 0.66, 0.76].map((x) => p(`M${w * x} ${ht * 0.26} V${ht * 0.74}`, "art-ink")),
  ],
};

// A tile's picture: `rows` × `cols` as listed, lying `orient` ("v": turned a quarter, so it
// is cols high and rows wide). `needs` (letters) draws its symbols small in a corner.
export function treasureArt(pile, rows, cols, { orient = "h", needs = "", cls = "" } = {}) {
  const w = cols * U;
  const ht = rows * U;
  const draw = DRAW[pile] || (() => []);
  const body = [rect(1, 1, w - 2, ht - 2, `art-back pile-${pile}`, 4), ...draw(w, ht)];
  if (needs) { // the symbols it needed, small on a light strip in the bottom-right corner
    const size = Math.min(U * 0.42, (w - 4) / needs.length);
    const width = size * needs.length + 2;
    body.push(rect(w - 2 - width, ht - size - 3, width, size + 2, "art-strip", 2));
    [...needs].forEach((letter, i) => {
      const icon = glyph(letter, "art-sym");
      const at = { x: w - 1 - size * (needs.length - i), y: ht - size - 2, width: size, height: size };
      for (const [k, v] of Object.entries(at)) icon.setAttribute(k, v);
      body.push(icon);
    });
  }
  const turned = orient === "v";
  const [vw, vh] = turned ? [ht, w] : [w, ht];
  const group = svg("g", { transform: turned ? `translate(${ht} 0) rotate(90)` : null }, body);
  return svg("svg", { class: `art ${cls}`.trim(), viewBox: `0 0 ${vw} ${vh}`, "aria-hidden": "true", focusable: "false",
    preserveAspectRatio: "xMidYMid meet" }, group);
}

