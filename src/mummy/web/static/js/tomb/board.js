// The player's sheet as a board: the legal targets of the chosen tool lit up, the tile or
// dug square previewed under the pointer (or the keyboard cursor), and clicks on squares
// and on the Wand's edges turned into actions. `p` is the page (page.js).
import { parseSquare, squareName, svg } from "../dom.js";
import { slotsOf, textFor } from "./actions.js";
import { CELL, MARGIN, cellRect, drawSheet, edgeLine, edgeOf } from "./draw.js";

// The text a click on `square` sends with the current tool: the listed action's, or (not
// listed) its notation, sent anyway for the engine to refuse with its rule.
export function actionAt(p, square) {
  const { ui } = p;
  if (!ui.tool || ui.slot === null) return null;
  const source = typeof ui.slot === "number" ? { dice: ui.tool.slots || [ui.slot] } : { item: ui.slot };
  if (ui.tool.kind === "place") return textFor(p.legal, { kind: "place", ...source, shape: ui.tool.shape, orient: ui.orient, square });
  if (ui.tool.kind === "dig") return textFor(p.legal, { kind: "dig", ...source, orient: ui.tool.sides, square });
  return null;
}

// The Wand's function, erase or add (T6.4), waits for an edge; its action for one.
export const wandEdge = (p) => p.ui.tool && (p.ui.tool.kind === "erase" || p.ui.tool.kind === "add");
export const edgeAction = (p, edge) => textFor(p.legal, { kind: p.ui.tool.kind, ...p.source(), edge });

function drawPreview(p, layer, map, ok) {
  const { ui } = p;
  const [ax, ay] = parseSquare(ui.cursor);
  let cells;
  let openings;
  if (ui.tool.kind === "place") {
    const o = p.content.shapes[ui.tool.shape].orients[ui.orient];
    cells = o.cells;
    openings = o.openings;
  } else {
    cells = [[0, 0]];
    openings = ui.tool.sides.split("").map((s) => [0, 0, s.toUpperCase()]);
  }
  const g = svg("g", { class: ok ? "preview-ok" : "preview-bad", "pointer-events": "none", "data-preview": ok ? "legal" : "illegal" });
  for (const [dx, dy] of cells) {
    const x = ax + dx;
    const y = ay + dy;
    if (x < 0 || y < 0 || x >= map.width || y >= map.height) continue;
    g.append(cellRect(x, y, { fill: ok ? "rgba(0,114,178,0.45)" : "url(#bad)", stroke: ok ? "#0072b2" : "#d55e00", "stroke-width": 2 }));
  }
  for (const [dx, dy, side] of openings) {
    const x = ax + dx;
    const y = ay + dy;
    if (x < 0 || y < 0 || x >= map.width || y >= map.height) continue;
    const [x1, y1, x2, y2] = edgeLine(edgeOf(squareName(x, y), side));
    g.append(svg("line", { x1, y1, x2, y2, stroke: "#fff", "stroke-width": 5 }), svg("line", { x1, y1, x2, y2, stroke: "#e69f00", "stroke-width": 3, "stroke-dasharray": "3 3" }));
  }
  layer.append(g);
}

// Light up where the chosen tool can act: anchors for a tile or a dig, edges for the Wand.
export function drawTargets(p) {
  const { ui } = p;
  const layers = p.sheetLayers;
  layers.targets.replaceChildren();
  layers.preview.replaceChildren();
  layers.edges.replaceChildren();
  if (!ui.tool) return;
  if (ui.tool.kind === "place" || ui.tool.kind === "dig") {
    const anchors = ui.tool.kind === "place"
      ? p.placementsFor(ui.tool.shape).filter((a) => a.orient === ui.orient && (!ui.tool.slots || String(slotsOf(a)) === String(ui.tool.slots)))
      : p.sourceActions().filter((a) => a.kind === "dig" && a.orient === ui.tool.sides);
    for (const a of anchors) {
      const [x, y] = parseSquare(a.square);
      layers.targets.append(cellRect(x, y, { class: "target", fill: "rgba(0,158,115,0.22)", stroke: "#009e73", "stroke-width": 2.5, "data-target": a.square, "pointer-events": "none" }),
        svg("circle", { cx: MARGIN + x * CELL + CELL / 2, cy: MARGIN + y * CELL + CELL / 2, r: 4, fill: "#009e73", "pointer-events": "none" }));
    }
    if (ui.cursor) drawPreview(p, layers.preview, p.mapNow, anchors.some((a) => a.square === ui.cursor));
  } else if (wandEdge(p)) {
    for (const a of p.sourceActions().filter((x) => x.kind === ui.tool.kind)) {
      const [x1, y1, x2, y2] = edgeLine(a.edge);
      layers.edges.append(svg("line", { x1, y1, x2, y2, stroke: ui.tool.kind === "erase" ? "#0072b2" : "#009e73", "stroke-width": 9, "stroke-opacity": 0.55, "stroke-linecap": "round", class: "edge-target", "data-edge": a.edge, tabindex: "0", role: "button", "aria-label": `${ui.tool.kind} ${a.edge}` }));
    }
  }
}

// The player's sheet, drawn with its layers and listening to the pointer.
export function boardSheet(p, map, sheet) {
  const { ui } = p;
  const drawn = drawSheet(map, sheet, { label: `${sheet.name}'s sheet` });
  p.sheetLayers = drawn.layers;
  p.mapNow = map;
  drawn.root.id = "sheet";
  drawn.root.addEventListener("pointerover", (e) => {
    const sq = e.target.getAttribute && e.target.getAttribute("data-square");
    if (sq && sq !== ui.cursor) { ui.cursor = sq; drawTargets(p); }
  });
  drawn.root.addEventListener("pointerleave", () => { ui.cursor = null; drawTargets(p); });
  drawn.root.addEventListener("click", (e) => {
    const edge = e.target.getAttribute && e.target.getAttribute("data-edge");
    if (edge && wandEdge(p)) {
      p.act(edgeAction(p, edge));
      return;
    }
    const sq = e.target.getAttribute && e.target.getAttribute("data-square");
    if (sq && ui.tool) {
      const text = actionAt(p, sq);
      if (text) p.act(text);
    } else if (sq && p.mine() && !ui.tool && p.legal.length) {
      p.say(ui.slot === null ? `Choose a die first (keys 1–${p.rules.row_size}), then a tile.` : "Choose what to do with the die first.", "info");
    }
  });
  drawTargets(p);
  return drawn.root;
}

// The keyboard cursor, moved by the arrow keys over the map.
export function moveCursor(p, dx, dy) {
  const [x, y] = p.ui.cursor ? parseSquare(p.ui.cursor) : [0, 0];
  const nx = Math.max(0, Math.min(p.mapNow.width - 1, x + dx));
  const ny = Math.max(0, Math.min(p.mapNow.height - 1, y + dy));
  p.ui.cursor = squareName(nx, ny);
  drawTargets(p);
}
