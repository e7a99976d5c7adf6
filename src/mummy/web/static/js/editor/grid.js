// The editor's grid: the map drawn as the game draws it (js/tomb/draw.js, so that what is
// made here looks as it will in play), the square of a fault marked over it, the keyboard
// cursor, and the pointer's presses and drags turned into squares for the page's tool.
import { ARROWS, parseSquare, squareName, svg } from "../dom.js";
import { CELL, MARGIN, cellRect, drawSheet, patchDrawing } from "../tomb/draw.js";
import { toDrawing } from "./model.js";

const SIDE_WORDS = { N: "north", E: "east", S: "south", W: "west" };
const ITEM_WORDS = { wand: "the Wand", shovel: "the Shovel", hammer: "the Hammer", "skeleton-key": "the Skeleton Key" };

// What a square holds, in words (the line under the grid, and the fault's square).
export function squareWords(map, square) {
  const parts = [map.stone.includes(square) ? "stone" : "free"];
  const room = map.rooms.find((r) => r.square === square);
  if (room) parts.push(`a room with ${room.finding === "gem" ? `the ${room.colour} gem` : "a sarcophagus"}, opening ${SIDE_WORDS[room.side] || room.side}`);
  const f = map.findings.find((g) => g.square === square);
  if (f) {
    parts.push({ coins: `${f.amount} coin${Number(f.amount) === 1 ? "" : "s"}`, key: "a key", ooze: "an ooze", golem: `the ${f.colour} golem`,
      mimic: "a mimic", item: ITEM_WORDS[f.item] || f.item }[f.kind] || f.kind);
  }
  for (const e of map.entrances.filter((g) => g.square === square)) parts.push(`an entrance on the ${SIDE_WORDS[e.side] || e.side} side`);
  return `${square}: ${parts.join(", ")}`;
}

function summary(map) {
  const n = (count, one, many) => `${count} ${count === 1 ? one : many}`;
  return `The map ${map.title || map.name}, ${map.width} by ${map.height}: ${n(map.stone.length, "stone square", "stone squares")}, `
    + `${n(map.rooms.length, "room", "rooms")}, ${n(map.entrances.length, "entrance", "entrances")}, ${n(map.findings.length, "finding", "findings")}.`;
}

// The grid in `box`: `onSquare(square, {first})` for each square the pointer presses or
// drags over (first: the press; the tool decides what a drag does), `onHover(square)`.
export class Grid {
  constructor(box, { onSquare, onHover }) {
    this.box = box;
    this.onSquare = onSquare;
    this.onHover = onHover;
    this.root = null;
    this.layers = null;
    this.size = null;
    this.cursor = null;
    this.fault = null;
    this.drag = null;
    this.keyboard = false; // the cursor is drawn once the keyboard is used
    this.pressed = -Infinity; // when the pointer last pressed a square
    box.addEventListener("pointerdown", (e) => this.press(e));
    box.addEventListener("pointermove", (e) => this.move(e));
    for (const end of ["pointerup", "pointercancel", "lostpointercapture"]) box.addEventListener(end, () => { this.drag = null; });
    box.addEventListener("pointerleave", () => { if (!this.drag) this.onHover(null); });
    box.addEventListener("keydown", (e) => this.key(e));
    // The cursor is shown while the grid has the keyboard's focus (not after a click).
    box.addEventListener("focus", () => {
      if (performance.now() - this.pressed < 1000) return; // focused by a click or a tap
      this.keyboard = true;
      if (!this.cursor) this.cursor = "A1";
      this.marks();
      this.onHover(this.cursor);
    });
    box.addEventListener("blur", () => this.marks());
  }

  squareAt(e) {
    const el = document.elementFromPoint(e.clientX, e.clientY);
    const sq = el && el.getAttribute && el.getAttribute("data-square");
    return sq && this.box.contains(el) ? sq : null;
  }

  press(e) {
    if (e.button !== 0) return;
    const sq = this.squareAt(e);
    if (!sq) return;
    this.pressed = performance.now();
    this.keyboard = false;
    this.cursor = sq;
    this.drag = { last: sq };
    try { this.box.setPointerCapture(e.pointerId); } catch { /* a pointer that is gone */ }
    this.onSquare(sq, { first: true });
  }

  move(e) {
    const sq = this.squareAt(e);
    if (this.drag) {
      if (sq && sq !== this.drag.last) {
        this.drag.last = sq;
        this.cursor = sq;
        this.onSquare(sq, { first: false });
      }
    } else if (e.pointerType === "mouse") {
      this.onHover(sq);
    }
  }

  key(e) {
    if (!this.size) return;
    const step = ARROWS[e.key];
    const [x, y] = this.cursor ? parseSquare(this.cursor) : [0, 0];
    if (step || e.key === "Enter" || e.key === " ") this.keyboard = true;
    if (step) {
      e.preventDefault();
      this.cursor = squareName(Math.max(0, Math.min(this.size[0] - 1, x + step[0])), Math.max(0, Math.min(this.size[1] - 1, y + step[1])));
      this.marks();
      this.onHover(this.cursor);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.cursor = squareName(Math.min(x, this.size[0] - 1), Math.min(y, this.size[1] - 1));
      this.onSquare(this.cursor, { first: true });
    }
  }

  // The map drawn (only what changed, after the first time), the fault on `fault` (a
  // square or null).
  draw(map, fault) {
    const drawing = toDrawing(map);
    const drawn = drawSheet(drawing, null, { label: summary(map) });
    drawn.root.id = "editor-sheet";
    drawn.root.setAttribute("data-width", map.width);
    drawn.root.setAttribute("data-height", map.height);
    const sameSize = this.size && this.size[0] === map.width && this.size[1] === map.height;
    if (this.root && sameSize) {
      const keep = new Set(Object.values(this.layers));
      patchDrawing(this.root, drawn.root, (el) => keep.has(el));
    } else {
      this.box.replaceChildren(drawn.root);
      this.root = drawn.root;
      this.layers = drawn.layers;
    }
    this.size = [map.width, map.height];
    if (this.cursor) {
      const [x, y] = parseSquare(this.cursor);
      if (x >= map.width || y >= map.height) this.cursor = null;
    }
    this.fault = fault;
    this.box.dataset.fault = fault || "";
    this.marks();
  }

  // The fault's square (hatched in vermillion, ringed, with a "!") and the cursor.
  marks() {
    if (!this.layers) return;
    const { targets, preview } = this.layers;
    targets.replaceChildren();
    preview.replaceChildren();
    if (this.fault) {
      const p = parseSquare(this.fault);
      if (p && p[0] < this.size[0] && p[1] < this.size[1]) {
        const [x, y] = p;
        const cx = MARGIN + x * CELL + CELL - 7;
        const cy = MARGIN + y * CELL + 7;
        targets.append(svg("g", { class: "fault-mark", "data-fault": this.fault, "pointer-events": "none" },
          cellRect(x, y, { fill: "url(#bad)", stroke: "#d55e00", "stroke-width": 4 }),
          svg("circle", { cx, cy, r: 8, fill: "#d55e00", stroke: "#fff", "stroke-width": 1.5 }),
          svg("text", { x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 12, "font-weight": 700, fill: "#fff" }, "!"),
          svg("title", {}, `${this.fault}: the fault (T10)`)));
      }
    }
    if (this.cursor && this.keyboard && document.activeElement === this.box) {
      const [x, y] = parseSquare(this.cursor);
      preview.append(cellRect(x, y, { class: "cursor", fill: "none", stroke: "#0072b2", "stroke-width": 3.5, "data-cursor": this.cursor, "pointer-events": "none" }));
    }
  }
}
