// The Mummy's Tomb drawn in SVG: a player's sheet (the map, what was drawn on it, and for
// the player layers for legal targets and the preview), dice faces and small shapes.
import { parseSquare, squareName, svg } from "../dom.js";
import { findingWords } from "./pictures.js";

export const CELL = 40;
export const MARGIN = 26;
const SIDE_STEP = { n: [0, -1], e: [1, 0], s: [0, 1], w: [-1, 0] };
const COLOUR = { red: "#d55e00", blue: "#0072b2", green: "#009e73", yellow: "#f0e442" };
export const COLOUR_LETTER = { red: "R", blue: "B", green: "G", yellow: "Y" };
export const ITEM_LETTER = { wand: "W", shovel: "S", hammer: "H", "skeleton-key": "K" };

// An edge name (`J1n`, `L3e`) as the two end points of its line on the sheet.
export function edgeLine(name) {
  const side = name.slice(-1);
  const [x, y] = parseSquare(name.slice(0, -1));
  const X = MARGIN + x * CELL;
  const Y = MARGIN + y * CELL;
  if (side === "n") return [X, Y, X + CELL, Y];
  if (side === "s") return [X, Y + CELL, X + CELL, Y + CELL];
  if (side === "w") return [X, Y, X, Y + CELL];
  return [X + CELL, Y, X + CELL, Y + CELL];
}

export function edgeOf(square, side) {
  return `${square}${side.toLowerCase()}`;
}

export function cellRect(x, y, attrs, ...children) {
  return svg("rect", { x: MARGIN + x * CELL, y: MARGIN + y * CELL, width: CELL, height: CELL, ...attrs }, ...children);
}

export function centre(name) {
  const [x, y] = parseSquare(name);
  return [MARGIN + x * CELL + CELL / 2, MARGIN + y * CELL + CELL / 2];
}

function icon(kind, cx, cy, f = {}) {
  const g = svg("g", { class: `icon icon-${kind}`, "aria-hidden": "true" });
  const t = (text, fill = "#1d1a14", size = 12) => svg("text", {
    x: cx, y: cy + size * 0.36, "text-anchor": "middle", "font-size": size, "font-weight": 700, fill,
  }, text);
  if (kind === "coins") {
    g.append(svg("circle", { cx, cy, r: 11, fill: "#e69f00", stroke: "#7a5200", "stroke-width": 1.5 }), t(String(f.amount)));
  } else if (kind === "key") {
    g.append(svg("circle", { cx: cx - 5, cy, r: 5, fill: "none", stroke: "#5e4a00", "stroke-width": 3 }),
      svg("path", { d: `M${cx} ${cy}h10m-3 0v5m-3 -5v4`, stroke: "#5e4a00", "stroke-width": 3, fill: "none" }));
  } else if (kind === "ooze") {
    g.append(svg("path", { d: `M${cx - 12} ${cy + 8}q2 -16 12 -16t12 16z`, fill: "#8fd5b8", stroke: "#00684c", "stroke-width": 1.5 }), t("O", "#00422f", 11));
  } else if (kind === "golem") {
    g.append(svg("rect", { x: cx - 10, y: cy - 10, width: 20, height: 20, rx: 2, fill: COLOUR[f.colour], stroke: "#1d1a14", "stroke-width": 1.5 }),
      t(COLOUR_LETTER[f.colour], f.colour === "yellow" ? "#1d1a14" : "#fff"));
  } else if (kind === "mimic") {
    g.append(svg("rect", { x: cx - 11, y: cy - 8, width: 22, height: 16, rx: 2, fill: "#cc79a7", stroke: "#5a2648", "stroke-width": 1.5 }),
      svg("path", { d: `M${cx - 11} ${cy - 2}h22`, stroke: "#5a2648", "stroke-width": 1.5 }), t("M", "#fff", 10));
  } else if (kind === "item") {
    g.append(svg("path", { d: `M${cx} ${cy - 12}l4 8 9 1 -7 6 2 9 -8 -5 -8 5 2 -9 -7 -6 9 -1z`, fill: "#56b4e9", stroke: "#004f7c", "stroke-width": 1.2 }),
      t(ITEM_LETTER[f.item], "#00263d", 9));
  } else if (kind === "sarcophagus") {
    g.append(svg("path", { d: `M${cx - 6} ${cy - 13}h12l4 6 -3 20h-14l-3 -20z`, fill: "#f3ead7", stroke: "#3b2f1e", "stroke-width": 1.5 }), t("S", "#3b2f1e", 10));
  } else if (kind === "gem") {
    g.append(svg("path", { d: `M${cx} ${cy - 12}l11 12 -11 12 -11 -12z`, fill: COLOUR[f.colour], stroke: "#1d1a14", "stroke-width": 1.5 }),
      t(COLOUR_LETTER[f.colour], f.colour === "yellow" ? "#1d1a14" : "#fff", 10));
  }
  return g;
}

// The patterns the sheets fill squares with (stone, a place a piece may not go, a dug
// square), defined once in the document: every sheet on a page refers to the same ids
// (`url(#stone)`), which a page with several sheets would otherwise repeat (an id must be
// unique in a document). Drawn again if a page has taken it away.
const DEFS_ID = "tomb-defs";

function ensureDefs() {
  if (typeof document === "undefined" || document.getElementById(DEFS_ID)) return;
  const pattern = (id, size, attrs, ...children) => svg("pattern", { id, width: size, height: size, patternUnits: "userSpaceOnUse", ...attrs }, ...children);
  document.body.append(svg("svg", { id: DEFS_ID, class: "tomb-defs", width: 0, height: 0, "aria-hidden": "true", focusable: "false" }, svg("defs", {},
    pattern("stone", 8, { patternTransform: "rotate(45)" }, svg("rect", { width: 8, height: 8, fill: "#8a8170" }), svg("path", { d: "M0 0v8", stroke: "#6f6757", "stroke-width": 3 })),
    pattern("bad", 8, { patternTransform: "rotate(-45)" }, svg("rect", { width: 8, height: 8, fill: "rgba(213,94,0,0.35)" }), svg("path", { d: "M0 0v8", stroke: "#d55e00", "stroke-width": 2 })),
    pattern("dug", 6, {}, svg("rect", { width: 6, height: 6, fill: "#efdcb0" }), svg("circle", { cx: 3, cy: 3, r: 1, fill: "#a8884a" })))));
}

// What the drawing shows, in words, for screen readers (the colours have shapes and
// letters too; this says it all at once).
function sheetSummary(map, sheet, label) {
  let summary = label || `${map.title} sheet`;
  if (sheet) {
    const ents = sheet.entrances.map((e) => `${e.edge} ${e.state}${e.start ? " (start)" : ""}`).join(", ");
    const rooms = sheet.rooms.map((r) => `${r.square} ${r.state}${r.collected ? " collected" : ""}`).join(", ");
    summary += `: ${Object.keys(sheet.covered).length} squares covered by ${sheet.tiles.length} tiles, `
      + `${sheet.open_openings.length} open openings. Entrances: ${ents}. Rooms: ${rooms}.`;
  }
  return summary;
}

// How a square looks: stone hatched, Shovel squares dotted, covered ones on sand; a
// square of a tile that just arrived glows (its class "fresh", css/tomb.css).
function squareLook(name, stone, digs, covered, fresh) {
  let fill = "#fffdf7";
  if (stone.has(name)) fill = "url(#stone)";
  else if (digs.has(name)) fill = "url(#dug)";
  else if (covered[name]) fill = "#f1dfb4";
  return [fill, fresh.has(name) ? "sq fresh" : "sq"];
}

function dugSquares(sheet) {
  const digs = new Set();
  if (sheet) for (const t of sheet.tiles) if (t.shape === "dig") t.squares.forEach((s) => digs.add(s));
  return digs;
}

// The squares, each with its tooltip (what the map has there).
function drawSquares(map, sheet, fresh) {
  const covered = sheet ? sheet.covered : {};
  const stone = new Set(map.stone);
  const what = new Map([...map.findings.map((f) => [f.square, findingWords(f)]), ...map.rooms.map((r) => [r.square, findingWords(r)])]);
  const base = svg("g", { class: "squares" });
  const digs = dugSquares(sheet);
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++) {
      const name = squareName(x, y);
      const [fill, cls] = squareLook(name, stone, digs, covered, fresh);
      const tip = stone.has(name) && !what.has(name) ? "stone: no tile may cover it" : what.get(name);
      base.append(cellRect(x, y, { fill, stroke: "#e4dac3", "stroke-width": 1, "data-square": name, class: cls },
        tip ? svg("title", {}, `${name}: ${tip}`) : null));
    }
  }
  return base;
}

// The squares of a drawing brought to `sheet`: only the fill and the class of a square
// change as a sheet is played (its place and tooltip are the map's). False if the group
// is not the one drawSquares made for this map (then the sheet is drawn anew).
function updateSquares(base, map, sheet, fresh) {
  const covered = sheet.covered;
  const stone = new Set(map.stone);
  const digs = dugSquares(sheet);
  const rects = base.children;
  if (rects.length !== map.width * map.height) return false;
  for (let y = 0, i = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++, i++) {
      const rect = rects[i];
      const name = squareName(x, y);
      if (rect.getAttribute("data-square") !== name) return false;
      const [fill, cls] = squareLook(name, stone, digs, covered, fresh);
      if (rect.getAttribute("fill") !== fill) rect.setAttribute("fill", fill);
      if (rect.getAttribute("class") !== cls) rect.setAttribute("class", cls);
    }
  }
  return true;
}

// Coordinates: columns A.. along the top, rows 1.. down the left side.
function drawCoords(map) {
  const labels = svg("g", { class: "coords", "font-size": 11, fill: "#6b6456", "aria-hidden": "true" });
  for (let x = 0; x < map.width; x++) labels.append(svg("text", { x: MARGIN + x * CELL + CELL / 2, y: 15, "text-anchor": "middle" }, squareName(x, 0).replace(/\d+$/, "")));
  for (let y = 0; y < map.height; y++) labels.append(svg("text", { x: 12, y: MARGIN + y * CELL + CELL / 2 + 4, "text-anchor": "middle" }, String(y + 1)));
  return labels;
}

// Tile numbers at each tile's anchor.
function drawTileNumbers(sheet) {
  const tileLayer = svg("g", { class: "tiles" });
  if (sheet) {
    for (const t of sheet.tiles) {
      if (t.shape === "dig") continue;
      const [cx, cy] = centre(t.squares[0]);
      tileLayer.append(svg("text", { x: cx - CELL / 2 + 3, y: cy - CELL / 2 + 10, "font-size": 8, fill: "#8c7a55", class: "tile-n" }, String(t.n)));
    }
  }
  return tileLayer;
}

const tick = (cx, cy) => svg("path", { d: `M${cx - 9} ${cy + 1}l6 6 12 -14`, stroke: "#009e73", "stroke-width": 3.5, fill: "none" });

// Findings: the map's, faded once collected (or covered without being a finding).
function drawFindings(map, sheet) {
  const collected = new Set(sheet ? sheet.findings.map((f) => f.square) : []);
  const findings = svg("g", { class: "findings" });
  for (const f of map.findings) {
    const [cx, cy] = centre(f.square);
    const g = icon(f.kind, cx, cy, f);
    g.append(svg("title", {}, `${f.square}: ${findingWords(f)}${collected.has(f.square) ? " (found)" : ""}`));
    if (collected.has(f.square)) {
      g.classList.add("collected");
      g.append(tick(cx, cy));
    }
    g.setAttribute("data-finding", f.square);
    findings.append(g);
  }
  return findings;
}

// Rooms: their finding on the stone square, the opening marked, and their state.
function drawRooms(layer, map, sheet) {
  const roomStates = new Map((sheet ? sheet.rooms : []).map((r) => [r.square, r]));
  for (const r of map.rooms) {
    const [cx, cy] = centre(r.square);
    const g = icon(r.finding, cx, cy, r);
    const st = roomStates.get(r.square);
    g.setAttribute("data-room", r.square);
    g.append(svg("title", {}, `Room ${r.square}, ${r.finding === "gem" ? `${r.colour} gem` : "sarcophagus"}: ${st ? st.state : "open"}${st && st.collected ? ", collected" : ""}. ${findingWords(r)}`));
    if (st && st.state !== "open") g.setAttribute("data-state", st.state);
    if (st && st.collected) g.append(tick(cx, cy));
    layer.append(g);
    const [x1, y1, x2, y2] = edgeLine(r.opening);
    const closed = st && st.state === "closed";
    layer.append(svg("line", { x1, y1, x2, y2, stroke: closed ? "#1d1a14" : "#8c6d3f", "stroke-width": closed ? 4.5 : 3, "stroke-dasharray": closed ? null : "2 3", class: "room-opening", "data-room-opening": r.opening }));
  }
}

// Entrances: an arrow into the map on the border edge (a filled arrow once connected).
function drawEntrances(map, sheet) {
  const entranceStates = new Map((sheet ? sheet.entrances : []).map((e) => [e.edge, e]));
  const ent = svg("g", { class: "entrances" });
  for (const e of map.entrances) {
    const [x1, y1, x2, y2] = edgeLine(e.edge);
    const mx = (x1 + x2) / 2;
    const my = (y1 + y2) / 2;
    const st = entranceStates.get(e.edge);
    const [dx, dy] = SIDE_STEP[e.side.toLowerCase()];
    const tipX = mx - dx * 4;
    const tipY = my - dy * 4;
    const backX = mx + dx * 18;
    const backY = my + dy * 18;
    const px = -dy * 9;
    const py = dx * 9;
    const state = st ? st.state : "open";
    ent.append(svg("path", {
      d: `M${tipX} ${tipY}L${backX + px} ${backY + py}L${backX - px} ${backY - py}z`,
      fill: state === "connected" ? "#009e73" : state === "closed" ? "#1d1a14" : "#fff",
      stroke: "#1d1a14", "stroke-width": 1.5, "data-entrance": e.edge, "data-state": state,
    }, svg("title", {}, `Entrance ${e.edge}: ${state}${st && st.start ? ", the start" : ""}`)));
    if (st && st.start) ent.append(svg("text", { x: backX + dx * 2, y: backY + dy * 2 + 4, "font-size": 9, "text-anchor": "middle", "font-weight": 700 }, "S"));
  }
  return ent;
}

// Passages (thin), walls (thick) and open openings (orange gaps with a ring).
function drawEdges(sheet) {
  const lines = svg("g", { class: "edges", "stroke-linecap": "round" });
  for (const e of sheet.passages) {
    const [x1, y1, x2, y2] = edgeLine(e);
    lines.append(svg("line", { x1, y1, x2, y2, stroke: "#f1dfb4", "stroke-width": 3, "data-passage": e }));
  }
  for (const e of sheet.walls) {
    const [x1, y1, x2, y2] = edgeLine(e);
    lines.append(svg("line", { x1, y1, x2, y2, stroke: "#3b2f1e", "stroke-width": 4.5, "data-wall": e }, svg("title", {}, `Wall ${e}`)));
  }
  for (const e of sheet.open_openings) {
    const [x1, y1, x2, y2] = edgeLine(e);
    lines.append(svg("line", { x1, y1, x2, y2, stroke: "#e69f00", "stroke-width": 5, "stroke-dasharray": "3 4", "data-opening": e },
      svg("title", {}, `Open opening ${e}: your next tile may start here`)),
      svg("circle", { cx: (x1 + x2) / 2, cy: (y1 + y2) / 2, r: 4, fill: "#fff", stroke: "#e69f00", "stroke-width": 2 }));
  }
  return lines;
}

// The parts of a sheet that change as it is played, in the order they are drawn: each
// with what it is drawn from (its key, a string) and its drawing. A later drawing of the
// same map (updateSheet) draws again only the parts whose key changed.
const PARTS = [
  ["tiles", (sheet) => (sheet ? sheet.tiles.map((t) => `${t.n}${t.shape}${t.squares[0]}`).join() : ""), (map, sheet) => drawTileNumbers(sheet)],
  ["findings", (sheet) => (sheet ? JSON.stringify([sheet.findings.map((f) => f.square), sheet.rooms]) : ""), (map, sheet) => {
    const findings = drawFindings(map, sheet);
    drawRooms(findings, map, sheet);
    return findings;
  }],
  ["entrances", (sheet) => (sheet ? JSON.stringify(sheet.entrances) : ""), (map, sheet) => drawEntrances(map, sheet)],
  ["edges", (sheet) => (sheet ? JSON.stringify([sheet.passages, sheet.walls, sheet.open_openings]) : ""), (map, sheet) => (sheet ? drawEdges(sheet) : null)],
];

// The sheet of one player: the map, what was drawn on it, and (for the player) layers for
// legal targets and the preview. Returns {root, layers}.
// `fresh`: squares of tiles that just arrived, drawn with a short fade-in (css/tomb.css).
export function drawSheet(map, sheet, { small = false, label = "", fresh = new Set() } = {}) {
  const W = MARGIN * 2 + map.width * CELL;
  const H = MARGIN * 2 + map.height * CELL;
  const root = svg("svg", {
    viewBox: `0 0 ${W} ${H}`, class: small ? "sheet small" : "sheet", role: "img",
    "aria-label": sheetSummary(map, sheet, label), "data-player": sheet ? sheet.player : undefined,
  });
  ensureDefs();
  const parts = Object.fromEntries(PARTS.map(([name, , draw]) => [name, draw(map, sheet)]));
  root.append(drawSquares(map, sheet, fresh));
  if (!small) root.append(drawCoords(map));
  root.append(parts.tiles, parts.findings, parts.entrances);
  // The map's outline, then what was drawn on it.
  root.append(svg("rect", { x: MARGIN, y: MARGIN, width: map.width * CELL, height: map.height * CELL, fill: "none", stroke: "#5e5748", "stroke-width": 1.5 }));
  if (sheet) root.append(parts.edges);
  // A hint's or a review's plan (plan.js) under the targets and the preview.
  const layers = { hint: svg("g", { class: "hint-layer" }), targets: svg("g", { class: "targets" }),
    preview: svg("g", { class: "preview" }), edges: svg("g", { class: "edge-targets" }) };
  root.append(layers.hint, layers.targets, layers.preview, layers.edges);
  // What this drawing was made of, for updateSheet (a property of the element, not shown).
  root.sheetDrawn = { map, small, parts, keys: Object.fromEntries(PARTS.map(([name, key]) => [name, key(sheet)])) };
  return { root, layers };
}

// Bring a player's sheet drawn by drawSheet (`root`, in the page) to `sheet`, changing only
// what differs: a placement changes a few squares and edges of a sheet of hundreds of
// shapes, and building the sheet anew to compare it costs more than the change itself
// (web.place_tile_ms). The squares get their new fill and class; each other part is drawn
// again only if what it is drawn from has changed, and then put in by patchDrawing. The
// layers (targets, preview, hint) are the page's and are left alone. False when `root` is
// not a drawing of this map with a sheet (the caller draws it anew).
export function updateSheet(root, map, sheet, { label = "", fresh = new Set() } = {}) {
  const drawn = root.sheetDrawn;
  if (!drawn || drawn.map !== map || !sheet || PARTS.some(([name]) => !drawn.parts[name] || drawn.parts[name].parentNode !== root)) return false;
  const squares = root.firstElementChild;
  if (!squares || squares.getAttribute("class") !== "squares" || !updateSquares(squares, map, sheet, fresh)) return false;
  ensureDefs();
  const summary = sheetSummary(map, sheet, label);
  if (root.getAttribute("aria-label") !== summary) root.setAttribute("aria-label", summary);
  if (sheet.player !== undefined && root.getAttribute("data-player") !== String(sheet.player)) root.setAttribute("data-player", sheet.player);
  for (const [name, key, draw] of PARTS) {
    const now = key(sheet);
    if (now === drawn.keys[name]) continue;
    const part = draw(map, sheet);
    patchDrawing(drawn.parts[name], part);
    if (drawn.parts[name].parentNode !== root) drawn.parts[name] = part; // replaced by the new drawing
    drawn.keys[name] = now;
  }
  return true;
}

// Bring `old` (a drawing in the page) to what `fresh` (the same drawing made anew) shows,
// changing only what differs: a placement changes a few squares and edges of a sheet of
// hundreds of shapes, and a sheet drawn anew each time costs the browser its style, layout
// and paint all over again (web.place_tile_ms). Elements of the same kind with as many
// children are kept and their attributes set; anything else is replaced. For drawings
// without listeners of their own (a sheet's shapes): a kept element keeps its old ones.
// `keep(el)`: old elements left as they are (the layers the page draws itself).
export function patchDrawing(old, fresh, keep = () => false) {
  if (keep(old) || old.isEqualNode(fresh)) return;
  if (old.nodeType === 3 && fresh.nodeType === 3) {
    old.data = fresh.data;
    return;
  }
  if (old.nodeType !== 1 || old.nodeName !== fresh.nodeName || old.childNodes.length !== fresh.childNodes.length) {
    old.replaceWith(fresh);
    return;
  }
  for (const a of [...old.attributes]) if (!fresh.hasAttribute(a.name)) old.removeAttribute(a.name);
  for (const a of fresh.attributes) if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
  const pairs = [...old.childNodes].map((c, i) => [c, fresh.childNodes[i]]); // before any moves
  for (const [o, f] of pairs) patchDrawing(o, f, keep);
}

export function dieFace(value, { size = 34, used = false } = {}) {
  const pips = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
    5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] }[value] || [];
  const s = size / 4;
  return svg("svg", { viewBox: `0 0 ${size} ${size}`, width: size, height: size, class: "die-face", "aria-hidden": "true" },
    svg("rect", { x: 1, y: 1, width: size - 2, height: size - 2, rx: 6, fill: used ? "#e9e2d0" : "#fff", stroke: "#3b2f1e", "stroke-width": 1.5 }),
    ...pips.map(([px, py]) => svg("circle", { cx: px * s, cy: py * s, r: size / 11, fill: used ? "#a79f8c" : "#1d1a14" })));
}

// A shape's small picture; made once per shape and size, copied for each drawing (the
// Tile Table shows a dozen of them, drawn again with the page).
const minis = new WeakMap(); // orient -> Map(size -> picture)
export function miniShape(orient, size = 7) {
  if (!minis.has(orient)) minis.set(orient, new Map());
  const made = minis.get(orient);
  if (!made.has(size)) made.set(size, makeMiniShape(orient, size));
  return made.get(size).cloneNode(true);
}

function makeMiniShape(orient, size) {
  const xs = orient.cells.map((c) => c[0]);
  const ys = orient.cells.map((c) => c[1]);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  const w = (Math.max(...xs) - minX + 1) * size;
  const hgt = (Math.max(...ys) - minY + 1) * size;
  return svg("svg", { viewBox: `0 0 ${w} ${hgt}`, width: w, height: hgt, class: "mini", "aria-hidden": "true" },
    ...orient.cells.map(([x, y]) => svg("rect", { x: (x - minX) * size, y: (y - minY) * size, width: size, height: size, fill: "#c9a55c", stroke: "#5e4a22", "stroke-width": 0.8 })),
    ...orient.openings.map(([x, y, side]) => {
      const X = (x - minX) * size;
      const Y = (y - minY) * size;
      const d = { N: `M${X + 1} ${Y}h${size - 2}`, S: `M${X + 1} ${Y + size}h${size - 2}`, W: `M${X} ${Y + 1}v${size - 2}`, E: `M${X + size} ${Y + 1}v${size - 2}` }[side];
      return svg("path", { d, stroke: "#fff", "stroke-width": 2 });
    }));
}
