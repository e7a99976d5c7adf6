// The page's frame: one screen on a desktop (the map sized to the window's height, the
// controls and the panels in columns that scroll on their own), panels that fold and stay
// folded, what changed since the last view (for the short animations), the kind of screen
// (touch or mouse), and an action told in words when the server's log has no sentence.
import { h } from "../dom.js";

// A touch screen: taps preview before they place, and no keyboard hints are shown.
const COARSE = matchMedia("(pointer: coarse)");
const NO_HOVER = matchMedia("(hover: none)");
export const touchScreen = () => COARSE.matches || NO_HOVER.matches;

// The height the layout may take without the page scrolling (the map is that tall on a
// desktop, css/tomb.css); kept in the variable --avail as the window changes.
export function fitToScreen(layout) {
  const top = layout.getBoundingClientRect().top + window.scrollY;
  const avail = `${Math.max(320, Math.floor(window.innerHeight - top - 18))}px`;
  if (layout.style.getPropertyValue("--avail") !== avail) layout.style.setProperty("--avail", avail);
}

// The same after the page's next drawing, once however often it is asked for meanwhile:
// measuring the layout in the middle of a redraw makes the browser lay the page out there
// and then, after the rest of the redraw, once more.
export function fitSoon(layout) {
  if (layout.fitting) return;
  layout.fitting = requestAnimationFrame(() => {
    layout.fitting = 0;
    fitToScreen(layout);
  });
}

// Put `nodes` (a part of the page drawn anew) in `box`, keeping each of its children that
// is the same as the new one in its place (Node.isEqualNode: same elements, attributes and
// text), so that a redraw costs the browser only what changed. The kept copy's listeners
// are the old drawing's: what they do is named in the attributes compared (a button's
// data-action, data-slot, ...), so that they are the same as the new ones'.
export function keepSame(box, nodes) {
  const old = [...box.childNodes];
  nodes.forEach((node, i) => {
    if (!old[i]) box.append(node);
    else if (!old[i].isEqualNode(node)) old[i].replaceWith(node);
  });
  for (const gone of old.slice(nodes.length)) gone.remove();
}

// -- panels that fold, remembered in this browser --------------------------------------------
const FOLDS_KEY = "mummy.tomb.folds";

function folds() {
  try { return JSON.parse(localStorage.getItem(FOLDS_KEY) || "{}"); } catch { return {}; }
}

// A panel beside the map as a <details>: open unless folded (on a phone, folded unless
// opened), the choice kept across redraws and visits.
export function fold(key, title, attrs, ...body) {
  const saved = folds()[key];
  const open = saved === undefined ? !matchMedia("(max-width: 699px)").matches : saved;
  const d = h("details", { class: "panel fold", "data-fold": key, open, ...attrs },
    h("summary", {}, h("h2", {}, ...[title].flat())), ...body);
  d.addEventListener("toggle", () => {
    const all = folds();
    if (all[key] === d.open) return; // a panel drawn open fires "toggle" too: nothing to keep
    all[key] = d.open;
    try { localStorage.setItem(FOLDS_KEY, JSON.stringify(all)); } catch { /* not remembered */ }
  });
  return d;
}

// -- what changed ---------------------------------------------------------------------------
// The squares of the tiles each sheet gained since `prev` (seat -> Set of squares).
export function freshSquares(prev, view) {
  const out = new Map();
  if (!prev) return out;
  view.state.sheets.forEach((sheet, i) => {
    const before = prev.state.sheets[i];
    const known = new Set(before ? before.tiles.map((t) => t.n) : []);
    const squares = new Set();
    for (const t of sheet.tiles) if (!known.has(t.n)) t.squares.forEach((s) => squares.add(s));
    out.set(i, squares);
  });
  return out;
}

// A new roll since `prev`: a new round, or dice added to the row (bought or chosen).
export function newRoll(prev, view) {
  return !!prev && (prev.state.round !== view.state.round || String(prev.state.dice) !== String(view.state.dice));
}

// -- an action in words ---------------------------------------------------------------------
const SOURCE = { wand: "the Wand", shovel: "the Shovel" };
const MONSTER = { ooze: "an ooze", skeleton: "a skeleton", zombie: "a zombie", mimic: "a mimic", mummy: "the Mummy" };

function sourceWords(a) {
  if (a.item && SOURCE[a.item]) return SOURCE[a.item];
  const dice = a.dice || [];
  return dice.length > 1 ? `dice ${dice.join(" and ")}` : `die ${dice[0]}`;
}

// What a listed action did, in a sentence (used when the view's log has none for it).
export function actionWords(a, content) {
  if (!a) return "";
  switch (a.kind) {
    case "place": return a.shape === "room" ? `You drew a room at ${a.square} with ${sourceWords(a)}.`
      : `You drew the ${content.shapes[a.shape].name} (${a.shape}) at ${a.square} with ${sourceWords(a)}.`;
    case "dig": return `You dug ${a.square} with ${sourceWords(a)}, open ${a.orient.toUpperCase().split("").join(" and ")}.`;
    case "erase": return `You erased the wall ${a.edge} with ${sourceWords(a)}.`;
    case "add": return `You drew a wall at ${a.edge} with ${sourceWords(a)}.`;
    case "defeat": return `You defeated ${a.monster === "golem" ? `the ${a.colour} golem` : MONSTER[a.monster]} with ${sourceWords(a)}.`;
    case "up": return `You paid a coin to turn ${sourceWords(a)} up by one.`;
    case "down": return `You paid a coin to turn ${sourceWords(a)} down by one.`;
    case "discard": return `You discarded ${sourceWords(a)}.`;
    case "buy": return "You bought a die.";
    case "choose": return `You bought a ${a.value}.`;
    case "open": return `You opened a sarcophagus${a.item === "skey" ? " with the Skeleton Key" : ""}.`;
    case "end": return "You ended the round.";
    default: return "";
  }
}
