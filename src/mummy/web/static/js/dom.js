// Small helpers every page uses: elements and SVG built from data, a stylesheet added
// once, the square names of the notation, and the arrow keys as grid steps.

export const $ = (id) => document.getElementById(id);

// The arrow keys as steps on a grid: [dx, dy].
export const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

// The game id of /play/{id} and /replay/{id}.
export function gameIdFromPath() {
  return decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
}

// The address to fetch one of our files at, e.g. asset("/static/css/tomb.css"): the
// versioned address the page's import map gives it ("...?v=<hash of the file>"), which
// the browser keeps for good (the server answers it as immutable), or the address itself
// on a page without one (the server then answers with an ETag, revalidated each time).
export function asset(path) {
  return import.meta.resolve(path);
}

// A game's stylesheet, added to the page once (the drawing modules serve several pages):
// a promise of its loading (a sheet that fails to load resolves too: the page then shows
// unstyled rather than not at all). A sheet the page's head names already (the server
// puts a game's sheets there when it knows the game) is in: a stylesheet in the head holds
// back the page's module scripts until it has loaded (or failed).
const sheets = new Map();
export function loadStylesheet(path) {
  const href = asset(path);
  if (!sheets.has(href)) {
    const there = [...document.querySelectorAll("link[rel=stylesheet]")].some((link) => link.href === href);
    sheets.set(href, there ? Promise.resolve() : new Promise((resolve) => {
      document.head.append(h("link", { rel: "stylesheet", href, onload: () => resolve(), onerror: () => resolve() }));
    }));
  }
  return sheets.get(href);
}

const SVG_NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v);
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

// The elements given a listener of their own (h()'s `on...` attributes, or listen()):
// a page that brings a drawing up to date in place (tomb/layout.js keepSame) keeps such an
// element only while its attributes, which name what its listener does, are the same.
const LISTENED = new WeakSet();
export const listened = (node) => LISTENED.has(node);
export function listen(node, type, handler) {
  node.addEventListener(type, handler);
  LISTENED.add(node);
  return node;
}

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") listen(node, k.slice(2), v);
    else if (k === "class") node.className = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

// Square names as in the notation: column letters (A..Z, AA..), row numbers from 1.
// (Coordinates on a grid, not the notation of actions: the actions come as data.)
function columnName(x) {
  let name = "";
  x += 1;
  while (x) { const r = (x - 1) % 26; name = String.fromCharCode(65 + r) + name; x = Math.floor((x - 1) / 26); }
  return name;
}
export function squareName(x, y) { return `${columnName(x)}${y + 1}`; }
export function parseSquare(name) {
  const m = /^([A-Z]+)(\d+)$/.exec(name.toUpperCase());
  if (!m) return null;
  let x = 0;
  for (const ch of m[1]) x = x * 26 + (ch.charCodeAt(0) - 64);
  return [x - 1, Number(m[2]) - 1];
}
