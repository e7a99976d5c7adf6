// The page's frame: one screen on a desktop (the map sized to the window's height, the
// controls and the panels in columns that scroll on their own), panels that fold and stay
// folded, what changed since the last view (for the short animations), the kind of screen
// (touch or mouse), and an action told in words when the server's log has no sentence.
import { h, listen, listened } from "../dom.js";

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

// Put `nodes` (a part of the page drawn anew) in `box`, changing in what is there only
// what differs (bringTo), so that a redraw costs the browser only what changed: a
// placement changes a score, a mark in the Tile Table, a button's state, not the panels.
export function keepSame(box, nodes) {
  const old = [...box.childNodes];
  nodes.forEach((node, i) => {
    if (!old[i]) box.append(node);
    else bringTo(old[i], node);
  });
  for (const gone of old.slice(nodes.length)) gone.remove();
}

// Bring `old` (in the page) to what `fresh` (the same part drawn anew) shows: an equal node
// (Node.isEqualNode: same elements, attributes and text) is kept as it is; an element of
// the same kind gets the new attributes and its children are brought along one by one;
// text gets the new text; anything else is replaced. An element with a listener of its
// own (dom.js listened: a button, a folding panel) is kept only while its own attributes
// are the same: what its listener does is named in them (a button's data-action,
// data-slot, ...), so that the kept listener does what the new one would.
export function bringTo(old, fresh) {
  if (old.isEqualNode(fresh)) return;
  if (old.nodeType === Node.TEXT_NODE && fresh.nodeType === Node.TEXT_NODE) {
    old.data = fresh.data;
    return;
  }
  const same = old.nodeType === Node.ELEMENT_NODE && old.nodeName === fresh.nodeName && old.namespaceURI === fresh.namespaceURI;
  if (!same || ((listened(old) || listened(fresh)) && !(listened(old) && listened(fresh) && sameAttributes(old, fresh)))) {
    old.replaceWith(fresh);
    return;
  }
  for (const a of [...old.attributes]) if (!fresh.hasAttributeNS(a.namespaceURI, a.localName)) old.removeAttributeNS(a.namespaceURI, a.localName);
  for (const a of fresh.attributes) if (old.getAttributeNS(a.namespaceURI, a.localName) !== a.value) old.setAttributeNS(a.namespaceURI, a.name, a.value);
  const before = [...old.childNodes];
  const after = [...fresh.childNodes];
  after.forEach((node, i) => {
    if (before[i]) bringTo(before[i], node);
    else old.append(node);
  });
  for (const gone of before.slice(after.length)) gone.remove();
}

function sameAttributes(a, b) {
  if (a.attributes.length !== b.attributes.length) return false;
  for (const x of a.attributes) if (b.getAttributeNS(x.namespaceURI, x.localName) !== x.value) return false;
  return true;
}

// -- panels that fold, remembered in this browser --------------------------------------------
const FOLDS_KEY = "mummy.tomb.folds";

const NARROW = matchMedia("(max-width: 699px)");
// The folds kept in this browser, read once a page (the page is drawn again on every
// move, each panel asking) and again when another tab has changed them.
let known = null;
addEventListener("storage", (e) => { if (e.key === FOLDS_KEY || e.key === null) known = null; });

function folds() {
  if (!known) {
    try { known = JSON.parse(localStorage.getItem(FOLDS_KEY) || "{}"); } catch { known = {}; }
    if (!known || typeof known !== "object") known = {};
  }
  return known;
}

// A panel beside the map as a <details>: open unless folded (on a phone, folded unless
// opened), the choice kept across redraws and visits.
export function fold(key, title, attrs, ...body) {
  const saved = folds()[key];
  const open = saved === undefined ? !NARROW.matches : saved;
  const d = h("details", { class: "panel fold", "data-fold": key, open, ...attrs },
    h("summary", {}, h("h2", {}, ...[title].flat())), ...body);
  listen(d, "toggle", () => {
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
