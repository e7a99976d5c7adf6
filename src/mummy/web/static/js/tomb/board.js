// The player's sheet as a board: the legal targets of the chosen tool lit up, the tile or
// dug square previewed under the pointer (or the keyboard cursor), and clicks on squares
// and on the Wand's edges turned into actions. `p` is the page (page.js).
import { parseSquare, squareName, svg } from "../dom.js";
import { slotsOf, textFor } from "./actions.js";
import { CELL, MARGIN, cellRect, drawSheet, edgeLine, updateSheet } from "./draw.js";
import { touchScreen } from "./layout.js";
import { digOpenings } from "./pictures.js";
import { drawPiece } from "./plan.js";
import { Previews } from "./warn.js";

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

// The piece under the pointer (or the tapped square), drawn as it would be: blue squares
// (hatched orange where it may not go), its walls thick and its openings dashed orange,
// as on the sheet; `warned` (the server's preview has a warning) draws it orange. The same
// drawing shows a hint's or a review's plan (plan.js).
function drawPreview(p, layer, map, at, ok, warned) {
  const { ui } = p;
  const o = ui.tool.kind === "place" ? p.content.shapes[ui.tool.shape].orients[ui.orient] : { cells: [[0, 0]], openings: digOpenings(ui.tool.sides) };
  const g = drawPiece(map, at, o, !ok ? "illegal" : warned ? "warning" : "legal");
  g.setAttribute("data-preview", ok ? "legal" : "illegal");
  if (warned) g.setAttribute("data-warning", "yes");
  layer.append(g);
}

// A legal place under the pointer: ask the server's preview (once) whether it seals the
// dungeon, and say so before the click (warn.js; the click asks to confirm as well).
function warnAhead(p, at) {
  const text = actionAt(p, at);
  const action = p.legal.find((a) => a.text === text);
  if (!Previews.checked(action)) return false;
  const seen = p.previews.peek(text);
  if (seen === undefined) {
    p.previews.fetchOnce(text, (v) => { if (v && v.warnings && v.warnings.length && (p.ui.cursor || p.ui.armed) === at) drawTargets(p); });
    return false;
  }
  if (!seen || !seen.warnings || !seen.warnings.length) return false;
  p.say(`⚠ ${seen.warnings.map((w) => w.message).join(" ")}`, "warn");
  return true;
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
    const at = ui.cursor || ui.armed;
    if (at) {
      const ok = anchors.some((a) => a.square === at);
      const warned = ok && warnAhead(p, at);
      drawPreview(p, layers.preview, p.mapNow, at, ok, warned);
      if (!warned && p.els.message.classList.contains("warn")) p.say("");
    }
  } else if (wandEdge(p)) {
    for (const a of p.sourceActions().filter((x) => x.kind === ui.tool.kind)) {
      const [x1, y1, x2, y2] = edgeLine(a.edge);
      layers.edges.append(svg("line", { x1, y1, x2, y2, stroke: ui.tool.kind === "erase" ? "#0072b2" : "#009e73", "stroke-width": 9, "stroke-opacity": 0.55, "stroke-linecap": "round", class: "edge-target", "data-edge": a.edge, tabindex: "0", role: "button", "aria-label": `${ui.tool.kind} ${a.edge}` }));
    }
  }
}

// A tap (touch or pen) on a square previews there; a second tap on it places (the page's
// Place button does too). A mouse click places at once.
function clickSquare(p, sq) {
  const { ui } = p;
  if (ui.tool && ["place", "dig"].includes(ui.tool.kind) && (p.pointer === "touch" || p.pointer === "pen") && ui.armed !== sq) {
    Object.assign(ui, { armed: sq, cursor: null });
    p.render();
    return;
  }
  const text = actionAt(p, sq);
  if (text) p.act(text);
}

// The player's sheet, drawn with its layers and listening to the pointer. Drawn once; each
// later drawing of the same map only changes what differs in the sheet already there
// (draw.js updateSheet), its layers of targets and preview drawn again.
export function boardSheet(p, map, sheet, fresh) {
  const { ui } = p;
  const label = `${sheet.name}'s sheet`;
  if (p.sheetRoot && p.mapNow === map && updateSheet(p.sheetRoot, map, sheet, { label, fresh })) {
    drawTargets(p);
    return p.sheetRoot;
  }
  const drawn = drawSheet(map, sheet, { label, fresh });
  drawn.root.id = "sheet";
  p.sheetRoot = drawn.root;
  p.sheetLayers = drawn.layers;
  p.mapNow = map;
  drawn.root.addEventListener("pointerdown", (e) => { p.pointer = e.pointerType; });
  drawn.root.addEventListener("pointerover", (e) => {
    const sq = e.target.getAttribute && e.target.getAttribute("data-square");
    if (e.pointerType === "mouse" && sq && sq !== ui.cursor) { ui.cursor = sq; drawTargets(p); }
  });
  drawn.root.addEventListener("pointerleave", () => { if (ui.cursor) { ui.cursor = null; drawTargets(p); } });
  drawn.root.addEventListener("click", (e) => {
    const edge = e.target.getAttribute && e.target.getAttribute("data-edge");
    if (edge && wandEdge(p)) {
      p.act(edgeAction(p, edge));
      return;
    }
    const sq = e.target.getAttribute && e.target.getAttribute("data-square");
    if (sq && ui.tool) {
      clickSquare(p, sq);
    } else if (sq && p.mine() && !ui.tool && p.legal.length) {
      const first = touchScreen() ? "Choose a die first" : `Choose a die first (keys 1–${p.rules.row_size})`;
      p.say(ui.slot === null ? `${first}, then a tile.` : "Choose what to do with the die first.", "info");
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
