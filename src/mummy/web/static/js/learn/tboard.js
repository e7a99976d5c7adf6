// The tutorial's sheet: the game's own drawing (js/tomb/draw.js) of the player's sheet,
// with the places the chosen tile may go lit up (from the view's legal actions, as on the
// game page), the example's place pulsing, and the tile shown where the pointer is.
import { parseSquare, squareName, svg } from "../dom.js";
import { CELL, MARGIN, cellRect, drawSheet, edgeLine, edgeOf } from "../tomb/draw.js";

// The legal places of the chosen die, shape and orientation: their anchor squares.
export function anchors(t) {
  const { ui } = t;
  if (!ui.shape || !ui.orient) return [];
  return t.view.actions.filter((a) => a.kind === "place" && a.shape === ui.shape && a.orient === ui.orient
    && String(a.dice) === String([ui.slot])).map((a) => a.square);
}

function preview(t, layer, square, ok) {
  const o = t.content.shapes[t.ui.shape].orients[t.ui.orient];
  const [ax, ay] = parseSquare(square);
  const map = t.map;
  const g = svg("g", { "pointer-events": "none", "data-preview": ok ? "legal" : "illegal" });
  const inside = (x, y) => x >= 0 && y >= 0 && x < map.width && y < map.height;
  for (const [dx, dy] of o.cells) {
    if (inside(ax + dx, ay + dy)) {
      g.append(cellRect(ax + dx, ay + dy, { fill: ok ? "rgba(0,114,178,0.45)" : "url(#bad)", stroke: ok ? "#0072b2" : "#d55e00", "stroke-width": 2 }));
    }
  }
  for (const [dx, dy, side] of o.openings) {
    if (!inside(ax + dx, ay + dy)) continue;
    const [x1, y1, x2, y2] = edgeLine(edgeOf(squareName(ax + dx, ay + dy), side));
    g.append(svg("line", { x1, y1, x2, y2, stroke: "#e69f00", "stroke-width": 3, "stroke-dasharray": "3 3" }));
  }
  layer.append(g);
}

// Light up the legal places, the example's (when this is the example's tile and
// orientation), and the tile under the pointer.
export function drawTargets(t) {
  const { layers } = t;
  layers.targets.replaceChildren();
  layers.preview.replaceChildren();
  const legal = anchors(t);
  const move = t.step && t.step.move;
  const example = move && move.kind === "place" && move.shape === t.ui.shape && move.orient === t.ui.orient ? move.square : null;
  for (const sq of legal) {
    const [x, y] = parseSquare(sq);
    layers.targets.append(cellRect(x, y, { class: "target", fill: "rgba(0,158,115,0.22)", stroke: "#009e73", "stroke-width": 2.5, "data-target": sq }),
      svg("circle", { cx: MARGIN + x * CELL + CELL / 2, cy: MARGIN + y * CELL + CELL / 2, r: 4, fill: "#009e73" }));
  }
  if (example) {
    const [x, y] = parseSquare(example);
    layers.targets.append(svg("rect", { x: MARGIN + x * CELL - 3, y: MARGIN + y * CELL - 3, width: CELL + 6, height: CELL + 6, rx: 4,
      fill: "none", stroke: "#d55e00", "stroke-width": 4, class: "example-target", "data-example": example }));
  }
  if (t.ui.cursor && t.ui.shape && t.ui.orient) preview(t, layers.preview, t.ui.cursor, legal.includes(t.ui.cursor));
}

// The sheet, drawn and listening: pointing previews, a click on a square is handed to
// `onSquare` (the tutorial judges it).
export function tutorialSheet(t, sheet, onSquare) {
  const drawn = drawSheet(t.map, sheet, { label: "Your sheet" });
  drawn.root.id = "sheet";
  t.layers = drawn.layers;
  for (const layer of [drawn.layers.targets, drawn.layers.preview]) layer.setAttribute("pointer-events", "none");
  drawn.root.addEventListener("pointerover", (e) => {
    const sq = e.target.getAttribute && e.target.getAttribute("data-square");
    if (sq && sq !== t.ui.cursor) { t.ui.cursor = sq; drawTargets(t); }
  });
  drawn.root.addEventListener("pointerleave", () => { t.ui.cursor = null; drawTargets(t); });
  drawn.root.addEventListener("click", (e) => {
    const sq = e.target.getAttribute && e.target.getAttribute("data-square");
    if (sq) onSquare(sq);
  });
  drawTargets(t);
  return drawn.root;
}
