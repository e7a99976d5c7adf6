// Pieces and plans drawn over a sheet. `drawPiece` is the game page's preview of a piece
// (its squares tinted, its walls thick and its openings dashed orange, as on the sheet):
// the board draws the piece under the pointer with it, and `drawPlan` a whole plan with
// it, each tile, room and dug square numbered in order, and each wall the Wand erases or
// adds as a line. A plan is a list of actions as data (the review's `json`, a hint's):
// what places nothing (a coin, a defeat, a die bought, the end) is told in words by the
// caller, beside the sheet.
import { parseSquare, svg } from "../dom.js";
import { CELL, MARGIN, cellRect, edgeLine } from "./draw.js";
import { digOpenings, outline, sideLine } from "./pictures.js";

// How each kind of drawing looks: its squares' fill, their outline, and its class.
const LOOKS = {
  legal: { fill: "rgba(0,114,178,0.4)", stroke: "#0072b2" },
  warning: { fill: "rgba(230,159,0,0.4)", stroke: "#e69f00" },
  illegal: { fill: "url(#bad)", stroke: "#d55e00" },
  better: { fill: "rgba(0,114,178,0.42)", stroke: "#0072b2" }, // the review's better move, a hint: as a preview
  chosen: { fill: "rgba(204,121,167,0.45)", stroke: "#8a3f6a" }, // the move the player made
};

// A piece's squares and openings ({cells, openings}, as the content has them) for a place
// or dig action: a shape's orientation (any of its eight names), or the dug square's sides.
export function pieceOf(content, action) {
  if (action.kind === "dig") return { cells: [[0, 0]], openings: digOpenings(action.orient) };
  const shape = content.shapes[action.shape];
  if (!shape) return null;
  return shape.orients[shape.aliases[action.orient] || action.orient] || null;
}

// The piece `o` with its anchor on `at`, drawn as `state` (LOOKS) in its own group.
export function drawPiece(map, at, o, state) {
  const [ax, ay] = parseSquare(at);
  const look = LOOKS[state];
  const g = svg("g", { class: `preview-${state}`, "pointer-events": "none" });
  const inside = ([dx, dy]) => ax + dx >= 0 && ay + dy >= 0 && ax + dx < map.width && ay + dy < map.height;
  for (const [dx, dy] of o.cells.filter(inside)) {
    g.append(cellRect(ax + dx, ay + dy, { fill: look.fill, stroke: look.stroke, "stroke-width": 1 }));
  }
  for (const e of outline(o.cells, o.openings).filter((c) => inside([c.x, c.y]))) {
    const [x1, y1, x2, y2] = sideLine(ax + e.x, ay + e.y, e.side, CELL, MARGIN, MARGIN);
    g.append(e.open
      ? svg("line", { x1, y1, x2, y2, stroke: "#fff", "stroke-width": 6, class: "preview-open" })
      : svg("line", { x1, y1, x2, y2, stroke: "#3b2f1e", "stroke-width": 5, "stroke-linecap": "square", class: "preview-wall" }));
    if (e.open) g.append(svg("line", { x1, y1, x2, y2, stroke: "#e69f00", "stroke-width": 4, "stroke-dasharray": "4 3" }));
  }
  return g;
}

// A numbered disc on a square's corner: the order of a plan's steps.
function stepMark(square, n, look) {
  const [x, y] = parseSquare(square);
  const cx = MARGIN + x * CELL + 9;
  const cy = MARGIN + y * CELL + 9;
  return svg("g", { class: "plan-step", "aria-hidden": "true" },
    svg("circle", { cx, cy, r: 8, fill: "#fff", stroke: look.stroke, "stroke-width": 2 }),
    svg("text", { x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#1d1a14" }, String(n)));
}

// A plan over a sheet (see the module): a group for a drawing's layer, with `data-steps`
// the number of its actions drawn. `state`: "better" or "chosen".
export function drawPlan(content, map, actions, state = "better") {
  const look = LOOKS[state];
  const g = svg("g", { class: `plan plan-${state}`, "data-plan": state, "pointer-events": "none" });
  let drawn = 0;
  actions.forEach((a, i) => {
    if ((a.kind === "place" || a.kind === "dig") && a.square) {
      const o = pieceOf(content, a);
      if (!o) return;
      g.append(drawPiece(map, a.square, o, state), stepMark(a.square, i + 1, look));
      drawn += 1;
    } else if ((a.kind === "erase" || a.kind === "add") && a.edge) {
      const [x1, y1, x2, y2] = edgeLine(a.edge);
      g.append(svg("line", { x1, y1, x2, y2, stroke: a.kind === "add" ? "#3b2f1e" : look.stroke, "stroke-width": a.kind === "add" ? 6 : 8,
        "stroke-dasharray": a.kind === "erase" ? "5 4" : null, "stroke-opacity": 0.85, class: `plan-${a.kind}` }),
      stepMark(a.edge.slice(0, -1), i + 1, look));
      drawn += 1;
    }
  });
  g.setAttribute("data-steps", String(drawn));
  return g;
}
