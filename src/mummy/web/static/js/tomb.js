// The Mummy's Tomb in the browser: the sheet as SVG, the round's dice, the tracks, and
// every action chosen by clicking or by keys. The engine on the server is the judge: the
// page lights up what `view.legal` allows, and anything else it sends is answered with
// the engine's refusal (rule id and message), which is shown; nothing is lost.
import { ARROWS, describeError, errorText, h, loadStylesheet, parseSquare, squareName, svg } from "./api.js";

const CELL = 40;
const MARGIN = 26;
const SIDE_STEP = { n: [0, -1], e: [1, 0], s: [0, 1], w: [-1, 0] };
const COLOUR = { red: "#d55e00", blue: "#0072b2", green: "#009e73", yellow: "#f0e442" };
const COLOUR_LETTER = { red: "R", blue: "B", green: "G", yellow: "Y" };
const ITEM_LETTER = { wand: "W", shovel: "S", hammer: "H", "skeleton-key": "K" };
const ITEM_NAME = { wand: "Wand", shovel: "Shovel", hammer: "Hammer", "skeleton-key": "Skeleton Key" };
const DIG_SIDES = ["n", "e", "s", "w", "ne", "ns", "nw", "es", "ew", "sw"];
const MONSTER_NAME = { ooze: "ooze", skeleton: "skeleton", zombie: "zombie", mimic: "mimic", mummy: "the Mummy" };
const LINE_NAME = {
  oozes_x_skeletons: "Oozes × skeletons", zombies: "Zombies", golems: "Golems", mimics: "Mimics",
  mummy: "Mummy", magic_items: "Magic items", leftovers: "Coins and keys left", entrances: "Entrances",
  penalties: "Penalties",
};
const PHASE_NAME = { play: "playing", waiting: "round ended", after: "after round 20", done: "finished" };

// -- notation: reading the legal actions the server lists ----------------------------------
function parseAction(text) {
  const a = { text };
  let m;
  if (text === "end") return { ...a, kind: "end" };
  if ((m = /^open(\+skey)?$/.exec(text))) return { ...a, kind: "open", helper: m[1] ? "skey" : null };
  if ((m = /^buy([1-6])?$/.exec(text))) return m[1] ? { ...a, kind: "choose", value: Number(m[1]) } : { ...a, kind: "buy" };
  m = /^([1-4](?:\+[1-4])*|wand|shovel):(.+)$/.exec(text);
  if (!m) return { ...a, kind: "other" };
  const source = m[1];
  const slots = /^\d/.test(source) ? source.split("+").map(Number) : [];
  const item = slots.length ? null : source;
  const verb = m[2];
  const base = { ...a, slots, item };
  if ((m = /^dig\.([nesw]+)@([A-Z]+\d+)$/.exec(verb))) return { ...base, kind: "dig", sides: m[1], square: m[2] };
  if ((m = /^(erase|add)@([A-Z]+\d+[nesw])$/.exec(verb))) return { ...base, kind: m[1], edge: m[2] };
  if ((m = /^(\w+)\.([rf][0-3])@([A-Z]+\d+)$/.exec(verb))) return { ...base, kind: "place", shape: m[1], orient: m[2], square: m[3] };
  if ((m = /^(up|down|discard)$/.exec(verb))) return { ...base, kind: m[1] };
  if ((m = /^(ooze|skeleton|zombie|mimic|mummy|golem\.(\w+))(?:\+(hammer|skey))?$/.exec(verb))) {
    return { ...base, kind: "defeat", monster: m[2] ? "golem" : m[1], colour: m[2] || null, helper: m[3] || null };
  }
  return { ...base, kind: "other" };
}

// An edge name (`J1n`, `L3e`) as the two end points of its line on the sheet.
function edgeLine(name) {
  const side = name.slice(-1);
  const [x, y] = parseSquare(name.slice(0, -1));
  const X = MARGIN + x * CELL;
  const Y = MARGIN + y * CELL;
  if (side === "n") return [X, Y, X + CELL, Y];
  if (side === "s") return [X, Y + CELL, X + CELL, Y + CELL];
  if (side === "w") return [X, Y, X, Y + CELL];
  return [X + CELL, Y, X + CELL, Y + CELL];
}

function edgeOf(square, side) {
  return `${square}${side.toLowerCase()}`;
}

// -- drawing ------------------------------------------------------------------------------
function cellRect(x, y, attrs) {
  return svg("rect", { x: MARGIN + x * CELL, y: MARGIN + y * CELL, width: CELL, height: CELL, ...attrs });
}

function centre(name) {
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

function defs() {
  return svg("defs", {},
    svg("pattern", { id: "stone", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      svg("rect", { width: 8, height: 8, fill: "#8a8170" }), svg("path", { d: "M0 0v8", stroke: "#6f6757", "stroke-width": 3 })),
    svg("pattern", { id: "bad", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(-45)" },
      svg("rect", { width: 8, height: 8, fill: "rgba(213,94,0,0.35)" }), svg("path", { d: "M0 0v8", stroke: "#d55e00", "stroke-width": 2 })),
    svg("pattern", { id: "dug", width: 6, height: 6, patternUnits: "userSpaceOnUse" },
      svg("rect", { width: 6, height: 6, fill: "#efdcb0" }), svg("circle", { cx: 3, cy: 3, r: 1, fill: "#a8884a" })));
}

// The sheet of one player: the map, what was drawn on it, and (for the player) layers for
// legal targets and the preview. Returns {root, layers}.
function drawSheet(map, sheet, { small = false, label = "" } = {}) {
  const W = MARGIN * 2 + map.width * CELL;
  const H = MARGIN * 2 + map.height * CELL;
  // What the drawing shows, in words, for screen readers (the colours have shapes and
  // letters too; this says it all at once).
  let summary = label || `${map.title} sheet`;
  if (sheet) {
    const ents = sheet.entrances.map((e) => `${e.edge} ${e.state}${e.start ? " (start)" : ""}`).join(", ");
    const rooms = sheet.rooms.map((r) => `${r.square} ${r.state}${r.collected ? " collected" : ""}`).join(", ");
    summary += `: ${Object.keys(sheet.covered).length} squares covered by ${sheet.tiles.length} tiles, `
      + `${sheet.open_openings.length} open openings. Entrances: ${ents}. Rooms: ${rooms}.`;
  }
  const root = svg("svg", {
    viewBox: `0 0 ${W} ${H}`, class: small ? "sheet small" : "sheet", role: "img",
    "aria-label": summary, "data-player": sheet ? sheet.player : undefined,
  });
  root.append(defs());
  const covered = sheet ? sheet.covered : {};
  const stone = new Set(map.stone);
  const base = svg("g", { class: "squares" });
  const digs = new Set();
  if (sheet) for (const t of sheet.tiles) if (t.shape === "dig") t.squares.forEach((s) => digs.add(s));
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++) {
      const name = squareName(x, y);
      let fill = "#fffdf7";
      if (stone.has(name)) fill = "url(#stone)";
      else if (digs.has(name)) fill = "url(#dug)";
      else if (covered[name]) fill = "#f1dfb4";
      base.append(cellRect(x, y, { fill, stroke: "#e4dac3", "stroke-width": 1, "data-square": name, class: "sq" }));
    }
  }
  root.append(base);
  // Coordinates: columns A.. along the top, rows 1.. down the left side.
  if (!small) {
    const labels = svg("g", { class: "coords", "font-size": 11, fill: "#6b6456", "aria-hidden": "true" });
    for (let x = 0; x < map.width; x++) labels.append(svg("text", { x: MARGIN + x * CELL + CELL / 2, y: 15, "text-anchor": "middle" }, squareName(x, 0).replace(/\d+$/, "")));
    for (let y = 0; y < map.height; y++) labels.append(svg("text", { x: 12, y: MARGIN + y * CELL + CELL / 2 + 4, "text-anchor": "middle" }, String(y + 1)));
    root.append(labels);
  }
  // Tile numbers at each tile's anchor, and thin lines between different tiles.
  const tileLayer = svg("g", { class: "tiles" });
  if (sheet) {
    for (const t of sheet.tiles) {
      if (t.shape === "dig") continue;
      const [cx, cy] = centre(t.squares[0]);
      tileLayer.append(svg("text", { x: cx - CELL / 2 + 3, y: cy - CELL / 2 + 10, "font-size": 8, fill: "#8c7a55", class: "tile-n" }, String(t.n)));
    }
  }
  root.append(tileLayer);
  // Findings: the map's, faded once collected (or covered without being a finding).
  const collected = new Set(sheet ? sheet.findings.map((f) => f.square) : []);
  const findings = svg("g", { class: "findings" });
  for (const f of map.findings) {
    const [cx, cy] = centre(f.square);
    const g = icon(f.kind, cx, cy, f);
    if (collected.has(f.square)) {
      g.classList.add("collected");
      g.append(svg("path", { d: `M${cx - 9} ${cy + 1}l6 6 12 -14`, stroke: "#009e73", "stroke-width": 3.5, fill: "none" }));
    }
    g.setAttribute("data-finding", f.square);
    findings.append(g);
  }
  // Rooms: their finding on the stone square, the opening marked, and their state.
  const roomStates = new Map((sheet ? sheet.rooms : []).map((r) => [r.square, r]));
  for (const r of map.rooms) {
    const [cx, cy] = centre(r.square);
    const g = icon(r.finding, cx, cy, r);
    const st = roomStates.get(r.square);
    g.setAttribute("data-room", r.square);
    g.append(svg("title", {}, `Room ${r.square}, ${r.finding === "gem" ? `${r.colour} gem` : "sarcophagus"}: ${st ? st.state : "open"}${st && st.collected ? ", collected" : ""}`));
    if (st && st.state !== "open") g.setAttribute("data-state", st.state);
    if (st && st.collected) g.append(svg("path", { d: `M${cx - 9} ${cy + 1}l6 6 12 -14`, stroke: "#009e73", "stroke-width": 3.5, fill: "none" }));
    findings.append(g);
    const [x1, y1, x2, y2] = edgeLine(r.opening);
    findings.append(svg("line", { x1, y1, x2, y2, stroke: st && st.state === "closed" ? "#1d1a14" : "#8c6d3f", "stroke-width": st && st.state === "closed" ? 4.5 : 3, "stroke-dasharray": st && st.state === "closed" ? null : "2 3", class: "room-opening", "data-room-opening": r.opening }));
  }
  root.append(findings);
  // Entrances: an arrow into the map on the border edge (a filled arrow once connected).
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
  root.append(ent);
  // The map's outline, then passages (thin), open openings (orange gaps) and walls (thick).
  root.append(svg("rect", { x: MARGIN, y: MARGIN, width: map.width * CELL, height: map.height * CELL, fill: "none", stroke: "#5e5748", "stroke-width": 1.5 }));
  if (sheet) {
    const lines = svg("g", { class: "edges", "stroke-linecap": "round" });
    for (const e of sheet.passages) {
      const [x1, y1, x2, y2] = edgeLine(e);
      lines.append(svg("line", { x1, y1, x2, y2, stroke: "#f1dfb4", "stroke-width": 3, "data-passage": e }));
    }
    for (const e of sheet.walls) {
      const [x1, y1, x2, y2] = edgeLine(e);
      lines.append(svg("line", { x1, y1, x2, y2, stroke: "#3b2f1e", "stroke-width": 4.5, "data-wall": e }));
    }
    for (const e of sheet.open_openings) {
      const [x1, y1, x2, y2] = edgeLine(e);
      lines.append(svg("line", { x1, y1, x2, y2, stroke: "#e69f00", "stroke-width": 5, "stroke-dasharray": "3 4", "data-opening": e }),
        svg("circle", { cx: (x1 + x2) / 2, cy: (y1 + y2) / 2, r: 4, fill: "#fff", stroke: "#e69f00", "stroke-width": 2 }));
    }
    root.append(lines);
  }
  const layers = { targets: svg("g", { class: "targets" }), preview: svg("g", { class: "preview" }), edges: svg("g", { class: "edge-targets" }) };
  root.append(layers.targets, layers.preview, layers.edges);
  return { root, layers };
}

function dieFace(value, { size = 34, used = false } = {}) {
  const pips = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
    5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] }[value] || [];
  const s = size / 4;
  return svg("svg", { viewBox: `0 0 ${size} ${size}`, width: size, height: size, class: "die-face", "aria-hidden": "true" },
    svg("rect", { x: 1, y: 1, width: size - 2, height: size - 2, rx: 6, fill: used ? "#e9e2d0" : "#fff", stroke: "#3b2f1e", "stroke-width": 1.5 }),
    ...pips.map(([px, py]) => svg("circle", { cx: px * s, cy: py * s, r: size / 11, fill: used ? "#a79f8c" : "#1d1a14" })));
}

function scoreTable(score) {
  const rows = Object.entries(score.lines).map(([k, v]) =>
    h("tr", { "data-line": k }, h("td", {}, LINE_NAME[k] || k), h("td", { class: "num" }, String(v))));
  rows.push(h("tr", { class: "total" }, h("th", {}, "Total"), h("th", { class: "num", "data-total": "" }, String(score.total))));
  return h("table", { class: "lines score" }, h("tbody", {}, rows));
}

function tileTable(sheet, content) {
  const marked = new Set(sheet.tracks.tile_table.marked);
  const rows = new Set(sheet.tracks.tile_table.rows_paid);
  const cols = new Set(sheet.tracks.tile_table.columns_paid);
  const body = content.table.map(([a, b], i) => {
    const v = i + 1;
    const cell = (shape) => h("td", { class: marked.has(shape) ? "marked" : "", "data-shape": shape, title: `${shape} ${content.shapes[shape].name}` },
      miniShape(content.shapes[shape].orients.r0), h("span", { class: "shape-id" }, shape), marked.has(shape) ? h("span", { class: "mark", "aria-label": "marked" }, "✓") : null);
    return h("tr", {}, h("th", {}, String(v)), cell(a), cell(b),
      h("td", { class: rows.has(v) ? "paid" : "", title: `both marked: a bonus ${7 - v}` }, `+${7 - v}`, rows.has(v) ? " ✓" : ""));
  });
  body.push(h("tr", {}, h("th", {}, ""), ...["a", "b"].map((c) => h("td", { class: cols.has(c) ? "paid" : "", title: "all six marked: a key" }, "key", cols.has(c) ? " ✓" : "")), h("td", {})));
  return h("table", { class: "tile-table" }, h("thead", {}, h("tr", {}, h("th", {}, "die"), h("th", {}, "a"), h("th", {}, "b"), h("th", {}, "row"))), h("tbody", {}, body));
}

function miniShape(orient, size = 7) {
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

function monsterLog(sheet, map, legalDefeats, act) {
  const m = sheet.tracks.monsters;
  const list = h("div", { class: "monster-log" });
  const row = (title, entries, defeat) => {
    const r = h("div", { class: "mrow", "data-monster": defeat || title.toLowerCase() }, h("span", { class: "mname" }, title));
    const boxes = h("span", { class: "mboxes" });
    entries.forEach((e) => boxes.append(h("span", { class: `mbox ${e.state}`, title: `${e.state}${e.coins ? `, ${e.coins} coins` : ""}` },
      e.state === "defeated" ? "✕" : e.state === "circled" ? "◯" : "·", e.coins ? h("sub", {}, String(e.coins)) : null)));
    r.append(boxes);
    for (const a of legalDefeats.filter((d) => (d.monster === "golem" ? `golem.${d.colour}` : d.monster) === defeat)) {
      r.append(h("button", { class: "defeat", "data-action": a.text, onclick: () => act(a.text) },
        `Defeat${a.helper ? ` with ${a.helper === "skey" ? "Skeleton Key" : "Hammer"}` : ""}`));
    }
    list.append(r);
  };
  const counted = (n, circled, defeated, coins) => Array.from({ length: n }, (_, i) => ({
    state: i < defeated ? "defeated" : i < circled ? "circled" : "open", coins: coins ? coins[i] : 0 }));
  row("Oozes", counted(map.log.ooze.length, m.oozes.circled, m.oozes.defeated, map.log.ooze), "ooze");
  row("Skeletons", Array.from({ length: map.log.skeleton.length }, (_, i) => ({
    state: m.skeletons.defeated.includes(i + 1) ? "defeated" : i < m.skeletons.circled ? "circled" : "open", coins: map.log.skeleton[i] })), "skeleton");
  row("Sarcophagi", counted(map.log.zombie.length, m.sarcophagi.circled, m.sarcophagi.opened, null), "sarcophagus");
  row("Zombies", counted(map.log.zombie.length, m.zombies.circled, m.zombies.defeated, map.log.zombie), "zombie");
  for (const [colour, g] of Object.entries(m.golems)) {
    row(`Golem ${COLOUR_LETTER[colour]} (${colour})`, [{ state: g.defeated ? "defeated" : g.circled ? "circled" : "open", coins: map.golem_coins[colour] }], `golem.${colour}`);
  }
  row("Mimics", counted(map.log.mimic.length, m.mimics.circled, m.mimics.defeated, map.log.mimic), "mimic");
  row("Mummy", sheet.tracks.mummy_hits.map((hit) => ({ state: "defeated", coins: hit.points })), "mummy");
  return list;
}

function backpack(sheet, map) {
  const t = sheet.tracks;
  const items = Object.entries(t.items).map(([name, it]) => h("li", { class: it.found ? "found" : "missing", "data-item": name },
    h("span", { class: "item-letter" }, ITEM_LETTER[name]), ` ${ITEM_NAME[name]}: `,
    it.found ? `${it.uses} use${it.uses === 1 ? "" : "s"} left` : "not found"));
  const alerts = h("div", { class: "alerts", title: "Mummy alerts" },
    ...Array.from({ length: 18 }, (_, i) => h("span", { class: i < t.alerts ? "alert on" : "alert" }, i < t.alerts ? "▲" : "△")));
  return h("div", { class: "backpack" },
    h("p", {}, h("strong", { "data-coins": String(t.coins) }, `Coins ${t.coins}`), h("span", { class: "muted" }, ` (gained ${t.coins_gained} of ${map.coin_track})`),
      " · ", h("strong", { "data-keys": String(t.keys) }, `Keys ${t.keys}`), h("span", { class: "muted" }, ` (gained ${t.keys_gained} of ${map.key_track})`)),
    h("ul", { class: "items" }, items),
    h("div", {}, h("span", {}, `Mummy alerts ${t.alerts}/18 `), alerts));
}

// -- read-only rendering (replays, spectators' other sheets) -------------------------------
export function renderTombState(root, state, content, opts = {}) {
  loadStylesheet("/static/css/tomb.css");
  const names = opts.names || [];
  root.replaceChildren(h("div", { class: "tomb-replay" },
    h("p", { class: "round-line" }, `Round ${state.round} of 20 · dice `, ...state.dice.map((v) => dieFace(v, { size: 22 }))),
    ...state.sheets.map((sheet, i) => {
      const map = content.maps[sheet.map];
      return h("section", { class: "panel sheet-panel", "data-sheet": String(i) },
        h("h2", {}, `${names[i] || sheet.name} — ${sheet.score.total} points`, h("span", { class: "badge" }, PHASE_NAME[sheet.phase] || sheet.phase)),
        h("div", { class: "sheet-wrap" }, drawSheet(map, sheet, { label: `${sheet.name}'s sheet` }).root),
        h("div", { class: "side-by-side" }, backpack(sheet, map), scoreTable(sheet.score)));
    })));
}

// -- the playing page ----------------------------------------------------------------------
export function mount(root, live, content) {
  loadStylesheet("/static/css/tomb.css");
  const ui = {
    slot: null, // selected die slot, or "wand"/"shovel"
    tool: null, // {kind: "place", shape} | {kind: "dig", sides} | {kind: "erase"} | {kind: "add"}
    orient: "r0",
    cursor: null, // square under the pointer or the keyboard cursor
    busy: false,
  };
  let legal = [];
  let view = live.view;

  // One live region for the whole page, outside what each view redraws, so that screen
  // readers announce a refusal once and reliably.
  const els = {
    message: h("p", { class: "message info tomb-message", id: "message", role: "status", "aria-live": "polite" }),
    layout: h("div", { class: "tomb-layout" }),
  };
  root.append(els.message, els.layout);

  const say = (text, kind = "info") => {
    els.message.textContent = text;
    els.message.className = `message ${kind} tomb-message`;
  };

  async function act(text) {
    if (ui.busy) return;
    ui.busy = true;
    try {
      await live.act(text); // the update that follows redraws the page
      ui.tool = null;
      ui.slot = null;
      say(`Done: ${text}`, "info");
    } catch (error) {
      say(errorText(error), "error");
      render();
    } finally {
      ui.busy = false;
    }
  }

  const mine = () => view.you !== null && view.you !== undefined;
  // The Wand's function, erase or add (T6.4), waits for an edge; its action for one.
  const wandEdge = () => ui.tool && (ui.tool.kind === "erase" || ui.tool.kind === "add");
  const edgeAction = (edge) => `${ui.slot}:${ui.tool.kind}@${edge}`;
  const usesDie = (slot) => (a) => a.slots && a.slots.includes(slot);
  const dieUsable = (slot) => legal.some(usesDie(slot));
  const sourceActions = () => legal.filter(typeof ui.slot === "number" ? usesDie(ui.slot) : (a) => a.item === ui.slot);

  function orientsFor(shape) {
    return Object.keys(content.shapes[shape].orients);
  }

  function placementsFor(shape) {
    return sourceActions().filter((a) => a.kind === "place" && a.shape === shape);
  }

  function rotate(step) {
    if (!ui.tool || ui.tool.kind !== "place") return;
    const s = content.shapes[ui.tool.shape];
    const letter = ui.orient[0];
    const turn = (Number(ui.orient[1]) + step + 4) % 4;
    ui.orient = s.aliases[`${letter}${turn}`];
    render();
  }

  function flip() {
    if (!ui.tool || ui.tool.kind !== "place") return;
    const s = content.shapes[ui.tool.shape];
    ui.orient = s.aliases[`${ui.orient[0] === "r" ? "f" : "r"}${ui.orient[1]}`];
    render();
  }

  function chooseShape(shape) {
    ui.tool = { kind: "place", shape };
    const list = placementsFor(shape);
    const orients = orientsFor(shape);
    ui.orient = orients.find((o) => list.some((a) => a.orient === o)) || orients[0];
    render();
  }

  // The action a click on `square` means with the current tool (legal or not: the engine judges).
  function actionAt(square) {
    if (!ui.tool || ui.slot === null) return null;
    const src = typeof ui.slot === "number" ? (ui.tool.slots || [ui.slot]).join("+") : ui.slot;
    if (ui.tool.kind === "place") return `${src}:${ui.tool.shape}.${ui.orient}@${square}`;
    if (ui.tool.kind === "dig") return `${src}:dig.${ui.tool.sides}@${square}`;
    return null;
  }

  function drawTargets(layers, map) {
    layers.targets.replaceChildren();
    layers.preview.replaceChildren();
    layers.edges.replaceChildren();
    if (!ui.tool) return;
    if (ui.tool.kind === "place" || ui.tool.kind === "dig") {
      const anchors = ui.tool.kind === "place"
        ? placementsFor(ui.tool.shape).filter((a) => a.orient === ui.orient && (!ui.tool.slots || a.slots.join("+") === ui.tool.slots.join("+")))
        : sourceActions().filter((a) => a.kind === "dig" && a.sides === ui.tool.sides);
      for (const a of anchors) {
        const [x, y] = parseSquare(a.square);
        layers.targets.append(cellRect(x, y, { class: "target", fill: "rgba(0,158,115,0.22)", stroke: "#009e73", "stroke-width": 2.5, "data-target": a.square, "pointer-events": "none" }),
          svg("circle", { cx: MARGIN + x * CELL + CELL / 2, cy: MARGIN + y * CELL + CELL / 2, r: 4, fill: "#009e73", "pointer-events": "none" }));
      }
      if (ui.cursor) drawPreview(layers.preview, map, anchors.some((a) => a.square === ui.cursor));
    } else if (ui.tool.kind === "erase" || ui.tool.kind === "add") {
      for (const a of sourceActions().filter((x) => x.kind === ui.tool.kind)) {
        const [x1, y1, x2, y2] = edgeLine(a.edge);
        layers.edges.append(svg("line", { x1, y1, x2, y2, stroke: ui.tool.kind === "erase" ? "#0072b2" : "#009e73", "stroke-width": 9, "stroke-opacity": 0.55, "stroke-linecap": "round", class: "edge-target", "data-edge": a.edge, tabindex: "0", role: "button", "aria-label": `${ui.tool.kind} ${a.edge}` }));
      }
    }
  }

  function drawPreview(layer, map, ok) {
    const [ax, ay] = parseSquare(ui.cursor);
    let cells;
    let openings;
    if (ui.tool.kind === "place") {
      const o = content.shapes[ui.tool.shape].orients[ui.orient];
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

  function toolButtons(sheet) {
    const acts = sourceActions();
    const box = h("div", { class: "tools", id: "tools" });
    if (ui.slot === null) {
      box.append(h("p", { class: "muted" }, mine() ? "Choose a die (keys 1–4) or an item, then what to do with it." : "Watching."));
      return box;
    }
    const shapes = [...new Set(acts.filter((a) => a.kind === "place").map((a) => a.shape))];
    const rowDie = typeof ui.slot === "number" ? sheet.dice.row.find((d) => d.slot === ui.slot) : null;
    if (rowDie) {
      for (const shape of [`${rowDie.value}a`, `${rowDie.value}b`]) {
        const n = placementsFor(shape).filter((a) => a.slots.length === 1).length;
        box.append(h("button", { class: ui.tool && ui.tool.shape === shape && !ui.tool.slots ? "selected" : "", "data-shape": shape, disabled: n === 0,
          onclick: () => { chooseShape(shape); } }, miniShape(content.shapes[shape].orients.r0), ` ${shape} ${content.shapes[shape].name} (${n})`));
      }
      const rooms = acts.filter((a) => a.kind === "place" && a.shape === "room");
      for (const pair of [...new Set(rooms.map((a) => a.slots.join("+")))]) {
        box.append(h("button", { "data-shape": "room", "data-slots": pair, class: ui.tool && ui.tool.shape === "room" ? "selected" : "",
          onclick: () => { ui.tool = { kind: "place", shape: "room", slots: pair.split("+").map(Number) }; ui.orient = "r0"; render(); } },
        miniShape(content.shapes.room.orients.r0), ` Room with dice ${pair}`));
      }
    }
    const digs = acts.filter((a) => a.kind === "dig");
    if (digs.length) {
      const sidesList = DIG_SIDES.filter((s) => digs.some((a) => a.sides === s));
      box.append(h("div", { class: "row dig-row" }, h("span", {}, "Dig (Shovel):"),
        ...sidesList.map((s) => h("button", { "data-dig": s, class: ui.tool && ui.tool.kind === "dig" && ui.tool.sides === s ? "selected" : "",
          onclick: () => { ui.tool = { kind: "dig", sides: s }; render(); } }, s.toUpperCase()))));
    }
    for (const kind of ["erase", "add"]) {
      if (acts.some((a) => a.kind === kind)) {
        box.append(h("button", { "data-tool": kind, class: ui.tool && ui.tool.kind === kind ? "selected" : "", onclick: () => { ui.tool = { kind }; render(); } },
          kind === "erase" ? "Wand: erase a wall" : "Wand: add a wall"));
      }
    }
    for (const a of acts.filter((x) => x.kind === "defeat")) {
      const what = a.monster === "golem" ? `the ${a.colour} golem` : MONSTER_NAME[a.monster];
      box.append(h("button", { "data-action": a.text, onclick: () => act(a.text) },
        `Defeat ${what}${a.helper ? ` (+${a.helper === "skey" ? "Skeleton Key" : "Hammer"})` : ""}`));
    }
    for (const [kind, label] of [["up", "+1 (1 coin)"], ["down", "−1 (1 coin)"], ["discard", "Discard this die"]]) {
      const a = acts.find((x) => x.kind === kind);
      if (a || kind !== "discard") box.append(h("button", { "data-action": a ? a.text : `${ui.slot}:${kind}`, disabled: !a, onclick: () => a && act(a.text) }, label));
    }
    if (ui.tool && ui.tool.kind === "place") {
      const orients = orientsFor(ui.tool.shape);
      const counts = Object.fromEntries(orients.map((o) => [o, placementsFor(ui.tool.shape).filter((a) => a.orient === o).length]));
      box.append(h("div", { class: "row orient-row" }, h("span", {}, "Orientation:"),
        ...orients.map((o) => h("button", { "data-orient": o, "aria-pressed": String(o === ui.orient), onclick: () => { ui.orient = o; render(); } },
          miniShape(content.shapes[ui.tool.shape].orients[o]), ` ${o} (${counts[o]})`)),
        h("button", { id: "rotate", onclick: () => rotate(1), title: "Rotate (R)" }, "⟳ Rotate ", h("span", { class: "kbd" }, "R")),
        h("button", { id: "flip", onclick: () => flip(), title: "Flip (F)" }, "⇋ Flip ", h("span", { class: "kbd" }, "F"))));
      box.append(h("p", { class: "muted hint" }, "Green squares are where the tile's top-left square may go. Point to preview, click (or Enter) to place; Esc to cancel."));
    }
    return box;
  }

  function diceRow(sheet) {
    const row = h("div", { class: "dice-row", id: "dice" });
    for (const d of sheet.dice.row) {
      const usable = mine() && !d.used && dieUsable(d.slot);
      row.append(h("button", { class: `die${ui.slot === d.slot ? " selected" : ""}${d.used ? " used" : ""}`, "data-slot": String(d.slot), "data-value": String(d.value), "data-source": d.source,
        disabled: !usable, "aria-pressed": String(ui.slot === d.slot), title: `slot ${d.slot}: ${d.value} (${d.source})${d.used ? ", used" : ""}`,
        onclick: () => { ui.slot = ui.slot === d.slot ? null : d.slot; ui.tool = null; render(); } },
      dieFace(d.value, { used: d.used }), h("span", { class: "die-label" }, `${d.slot}`, d.source !== "roll" ? h("small", {}, ` ${d.source}`) : null)));
    }
    if (sheet.dice.next_round.length) row.append(h("span", { class: "muted next" }, "next round: ", ...sheet.dice.next_round.map((v) => dieFace(v, { size: 22 }))));
    return row;
  }

  function globalButtons(sheet) {
    const has = (t) => legal.find((a) => a.text === t);
    const btn = (text, label, id) => h("button", { id, "data-action": text, disabled: !has(text), onclick: () => act(text) }, label);
    const items = ["wand", "shovel"].map((item) => {
      const n = legal.filter((a) => a.item === item).length;
      return h("button", { "data-source": item, class: ui.slot === item ? "selected" : "", disabled: n === 0,
        onclick: () => { ui.slot = ui.slot === item ? null : item; ui.tool = null; render(); } }, `Use the ${ITEM_NAME[item]}`);
    });
    const choose = h("span", { class: "choose" }, "Choose a die (3 coins): ",
      ...[1, 2, 3, 4, 5, 6].map((v) => btn(`buy${v}`, String(v), `buy${v}`)));
    return h("div", { class: "global row" },
      btn("buy", "Buy a die (2 coins)", "buy"), choose, btn("open", "Open a sarcophagus (key)", "open"), btn("open+skey", "Open with the Skeleton Key", "open-skey"),
      ...items,
      h("button", { id: "undo", disabled: !view.can_undo, onclick: () => act("undo") }, "↶ Undo"),
      h("button", { id: "end", "data-action": "end", class: "primary", disabled: !has("end"), onclick: () => act("end") },
        sheet.phase === "after" ? "Finish the game" : "End the round"));
  }

  function playersPanel() {
    const s = view.state.sheets;
    return h("div", { class: "players", id: "players" }, ...s.map((sheet, i) => h("div", { class: `player${i === view.you ? " you" : ""}`, "data-player": String(i) },
      h("strong", {}, view.seats[i].name), view.seats[i].bot ? h("span", { class: "muted" }, ` (${view.seats[i].bot} bot)`) : null,
      " ", h("span", { class: `badge ${sheet.phase === "play" || sheet.phase === "after" ? "turn" : "done"}`, "data-phase": sheet.phase }, PHASE_NAME[sheet.phase] || sheet.phase),
      " ", h("span", { class: "muted" }, `${sheet.score.total} pts`))));
  }

  function resultsPanel() {
    const r = view.result;
    if (!r) return null;
    return h("section", { class: "panel results", id: "results" }, h("h2", {}, "Final scores"),
      ...r.scores.map((total, i) => h("div", { class: "result", "data-player": String(i) },
        h("h3", {}, `${r.places[i]}. ${view.seats[i].name}: ${total} points`),
        scoreTable({ lines: r.lines[i], total }),
        r.achievements[i].length ? h("p", { class: "achievements" }, "Achievements: ", r.achievements[i].join(", ")) : h("p", { class: "muted" }, "No achievement"))));
  }

  let sheetLayers = null;
  let mapNow = null;

  let parsedFor = null; // the view whose legal actions `legal` holds: read once per view
  function render() {
    view = live.view;
    if (parsedFor !== view) {
      legal = (view.legal || []).map(parseAction);
      parsedFor = view;
    }
    const you = mine() ? view.you : 0;
    const sheet = view.state.sheets[you];
    const map = content.maps[sheet.map];
    mapNow = map;
    if (ui.slot !== null && !sourceActions().length) { ui.slot = null; ui.tool = null; } // used up, or gone
    const drawn = drawSheet(map, sheet, { label: `${sheet.name}'s sheet` });
    sheetLayers = drawn.layers;
    drawn.root.id = "sheet";
    drawn.root.addEventListener("pointerover", (e) => {
      const sq = e.target.getAttribute && e.target.getAttribute("data-square");
      if (sq && sq !== ui.cursor) { ui.cursor = sq; drawTargets(sheetLayers, mapNow); }
    });
    drawn.root.addEventListener("pointerleave", () => { ui.cursor = null; drawTargets(sheetLayers, mapNow); });
    drawn.root.addEventListener("click", (e) => {
      const edge = e.target.getAttribute && e.target.getAttribute("data-edge");
      if (edge && wandEdge()) {
        act(edgeAction(edge));
        return;
      }
      const sq = e.target.getAttribute && e.target.getAttribute("data-square");
      if (sq && ui.tool) {
        const text = actionAt(sq);
        if (text) act(text);
      } else if (sq && mine() && !ui.tool && view.legal && view.legal.length) {
        say(ui.slot === null ? "Choose a die first (keys 1–4), then a tile." : "Choose what to do with the die first.", "info");
      }
    });
    drawTargets(sheetLayers, map);

    const others = view.state.sheets.map((s, i) => ({ s, i })).filter(({ i }) => i !== you);
    const left = h("div", { class: "tomb-main" },
      h("div", { class: "panel round" },
        h("div", { class: "row" }, h("h2", { id: "round" }, `Round ${view.state.round} of 20`),
          h("span", { class: "muted" }, "rolled "), ...view.state.dice.map((v) => dieFace(v, { size: 24 })),
          h("span", { class: "badge", id: "phase", "data-phase": sheet.phase }, PHASE_NAME[sheet.phase] || sheet.phase)),
        diceRow(sheet),
        mine() && !view.over ? toolButtons(sheet) : null,
        mine() && !view.over ? globalButtons(sheet) : null),
      h("div", { class: "sheet-wrap panel" }, drawn.root),
      resultsPanel());
    const right = h("aside", { class: "tomb-side" },
      h("section", { class: "panel" }, h("h2", {}, "Players"), playersPanel()),
      h("section", { class: "panel" }, h("h2", {}, "Backpack"), backpack(sheet, map)),
      h("section", { class: "panel" }, h("h2", {}, "Monster Log"),
        monsterLog(sheet, map, typeof ui.slot === "number" ? sourceActions().filter((a) => a.kind === "defeat") : [], act)),
      h("section", { class: "panel" }, h("h2", {}, "Tile Table"), tileTable(sheet, content)),
      h("section", { class: "panel", id: "score" }, h("h2", {}, `Score ${sheet.score.total}`), scoreTable(sheet.score),
        sheet.score.achievements.length ? h("p", {}, "Achievements: ", sheet.score.achievements.join(", ")) : null),
      ...others.map(({ s, i }) => h("section", { class: "panel other", "data-other": String(i) },
        h("h2", {}, `${view.seats[i].name}`, " ", h("span", { class: "badge", "data-phase": s.phase }, PHASE_NAME[s.phase] || s.phase), ` ${s.score.total} pts`),
        drawSheet(content.maps[s.map], s, { small: true, label: `${s.name}'s sheet (read only)` }).root)));
    const focusKey = focusedKey();
    els.layout.replaceChildren(left, right);
    if (focusKey) {
      // Keyboard users keep their place when the page is redrawn (any player's move redraws it).
      const again = els.layout.querySelector(focusKey);
      if (again) again.focus();
    }
  }

  // A selector for the element that has the focus, to find its new copy after a redraw.
  function focusedKey() {
    const el = document.activeElement;
    if (!el || !els.layout.contains(el)) return null;
    if (el.id) return `#${CSS.escape(el.id)}`;
    for (const attr of ["data-action", "data-slot", "data-orient", "data-dig", "data-tool", "data-source", "data-edge"]) {
      const v = el.getAttribute(attr);
      if (v !== null) return `[${attr}="${CSS.escape(v)}"]${el.dataset.shape ? `[data-shape="${CSS.escape(el.dataset.shape)}"]` : ""}`;
    }
    if (el.dataset.shape) return `#tools [data-shape="${CSS.escape(el.dataset.shape)}"]${el.dataset.slots ? `[data-slots="${CSS.escape(el.dataset.slots)}"]` : ""}`;
    return null;
  }

  function moveCursor(dx, dy) {
    const [x, y] = ui.cursor ? parseSquare(ui.cursor) : [0, 0];
    const nx = Math.max(0, Math.min(mapNow.width - 1, x + dx));
    const ny = Math.max(0, Math.min(mapNow.height - 1, y + dy));
    ui.cursor = squareName(nx, ny);
    drawTargets(sheetLayers, mapNow);
  }

  document.addEventListener("keydown", (e) => {
    if (e.target && /INPUT|SELECT|TEXTAREA/.test(e.target.tagName)) return;
    if (!mine() || view.over || e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key;
    const edge = e.target && e.target.getAttribute && e.target.getAttribute("data-edge");
    if (edge && (k === "Enter" || k === " ") && wandEdge()) {
      e.preventDefault(); // a Wand edge chosen from the keyboard (Tab to it, then Enter)
      if (!e.repeat) act(edgeAction(edge));
      return;
    }
    // A focused button or link handles its own Enter and Space; a held key is one press.
    if ((k === "Enter" || k === " ") && e.target && ["BUTTON", "A"].includes(e.target.tagName)) return;
    if (e.repeat && (k === "Enter" || /^[1-4]$/.test(k))) return;
    if (/^[1-4]$/.test(k)) {
      const slot = Number(k);
      if (dieUsable(slot)) { ui.slot = ui.slot === slot ? null : slot; ui.tool = null; render(); }
    } else if (k === "r" || k === "R") { rotate(e.shiftKey ? -1 : 1); } else if (k === "f" || k === "F") { flip(); } else if (k === "Escape") {
      if (ui.tool) ui.tool = null; else ui.slot = null;
      render();
    } else if (ui.tool && (ui.tool.kind === "place" || ui.tool.kind === "dig")) {
      if (ARROWS[k]) { e.preventDefault(); moveCursor(...ARROWS[k]); } else if (k === "Enter" && ui.cursor) { e.preventDefault(); const t = actionAt(ui.cursor); if (t) act(t); }
    }
  });

  live.addEventListener("view", () => render());
  live.addEventListener("refused", (e) => say(describeError(e.detail), "error"));
  render();
}
