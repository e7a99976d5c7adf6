// The other players' moves, one step at a time. A bot plays its whole round at once, and an
// opponent's moves may arrive together: drawn as they come, their tiles would just be there.
// So the page takes the other seats' log entries between the view it drew last and the new
// one (contracts §1: each entry's seat, sentence, `chance`, and `squares`, the squares the
// action covered on that seat's sheet) and shows them one after the other, STEP_MS apart:
// the sentence in the message line, the entry lit in the log, the step's squares sliding in
// on that player's sheet (the squares of later steps wait hidden), and the dice rolling when
// the step that revealed the new round's dice comes. The player's own actions are drawn at
// once; an action or a click of theirs shows the rest at once (page.js).
import { parseSquare, squareName } from "../dom.js";
import { newEntries } from "../log.js";

//: How long each of the other players' steps is shown (ms), as on Treasure's page.
export const STEP_MS = 700;
// More versions than this between two views (a reload, a resync): shown at once.
const MAX_JUMP = 40;
const ACROSS = { n: [0, -1], s: [0, 1], w: [-1, 0], e: [1, 0] };

export class Steps {
  // `redraw` draws the page again (each step, and the end of the steps).
  constructor(redraw) {
    this.redraw = redraw;
    this.queue = []; // the entries still to show, oldest first
    this.current = null; // the entry being shown
    this.timer = null;
  }

  get active() { return this.current !== null; }

  // A view arrived after `prev` (the view drawn last): queue the other seats' new entries.
  // `rolled`: the view has a new roll; it is held (true returned) for the step whose
  // `chance` revealed it, when that step is another player's.
  arrive(prev, view, you, rolled) {
    const log = (view && view.log) || [];
    if (!prev || !log.length || log[0].version > prev.version + 1 || view.version - prev.version > MAX_JUMP) {
      this.stop(); // a gap the log does not cover: everything is shown as it is
      return false;
    }
    const theirs = newEntries(prev, view).filter((e) => e.seat !== you).map((e) => ({ ...e, squares: e.squares || [] }));
    if (!theirs.length) return false;
    const roll = rolled ? theirs.filter((e) => e.chance).pop() : null;
    if (roll) roll.roll = true;
    this.queue.push(...theirs);
    if (!this.current) this.advance(false);
    return !!roll;
  }

  // The next step (drawn at once unless `redraw` is false: the caller is drawing).
  advance(redraw = true) {
    clearTimeout(this.timer);
    this.current = this.queue.shift() || null;
    this.timer = this.current ? setTimeout(() => this.advance(), STEP_MS) : null;
    if (redraw) this.redraw();
  }

  // Show the rest at once; whether steps were being shown.
  stop() {
    const was = this.active;
    clearTimeout(this.timer);
    Object.assign(this, { queue: [], current: null, timer: null });
    return was;
  }

  // The squares each seat's later steps will cover (hidden until their step): seat -> Set.
  later() {
    const out = new Map();
    for (const e of this.queue) {
      if (!out.has(e.seat)) out.set(e.seat, new Set());
      e.squares.forEach((s) => out.get(e.seat).add(s));
    }
    return out;
  }

  // The squares of the step being shown, which slide in: seat -> Set.
  arriving() {
    return this.current ? new Map([[this.current.seat, new Set(this.current.squares)]]) : new Map();
  }

  // Whether the dice roll now: the step being shown revealed the new round's dice.
  rolling() { return !!(this.current && this.current.roll); }
}

// A seat's sheet as it was before its later steps: their squares uncovered, their tiles,
// findings and the walls and openings around them left out (an edge stays when a square on
// either side of it is still covered).
export function staged(sheet, hidden) {
  if (!hidden || !hidden.size) return sheet;
  const covered = Object.fromEntries(Object.entries(sheet.covered).filter(([sq]) => !hidden.has(sq)));
  const shown = (sq) => !!covered[sq];
  const keep = (edge) => {
    const sq = edge.slice(0, -1);
    const [dx, dy] = ACROSS[edge.slice(-1)];
    const [x, y] = parseSquare(sq);
    return shown(sq) || (x + dx >= 0 && y + dy >= 0 && shown(squareName(x + dx, y + dy)));
  };
  return {
    ...sheet, covered,
    tiles: sheet.tiles.filter((t) => !t.squares.some((s) => hidden.has(s))),
    findings: sheet.findings.filter((f) => !hidden.has(f.square)),
    walls: sheet.walls.filter(keep), passages: sheet.passages.filter(keep), open_openings: sheet.open_openings.filter(keep),
  };
}

// Scroll `el` into the view of `column` when the column scrolls on its own (a desktop's
// side columns): what a step shows is seen, and the page itself never moves for it.
export function revealIn(column, el) {
  if (!column || !el || column.scrollHeight <= column.clientHeight || getComputedStyle(column).overflowY !== "auto") return;
  const box = column.getBoundingClientRect();
  const at = el.getBoundingClientRect();
  if (at.top < box.top) column.scrollTop -= box.top - at.top;
  else if (at.bottom > box.bottom) column.scrollTop += Math.min(at.bottom - box.bottom, at.top - box.top);
}
