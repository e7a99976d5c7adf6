// The map editor's map: what a designer has drawn, as plain data (kept in this browser as
// a draft), written as the map file format (docs/tomb-formats.md, "Maps") and drawn as the
// game draws a map (the shape of the server's map content). The editor never judges a map
// itself: the server checks the text by the same rules as `mummy check-map` (T10). Only
// the counts that the log must match are counted here, to list what is still missing.
import { parseSquare, squareName } from "../dom.js";

export const SIDES = ["N", "E", "S", "W"];
export const COLOURS = ["red", "blue", "green", "yellow"];
export const ITEMS = ["wand", "shovel", "hammer", "skeleton-key"];
export const LOGS = ["ooze", "skeleton", "zombie", "golem", "mimic"];
// The order a file lists findings in (oozes and mimics are numbered by their lines).
const FINDING_ORDER = ["coins", "key", "ooze", "golem", "mimic", "item"];
export const MIN_SIZE = 4;
export const MAX_SIZE = 20;

export function emptyMap(width = 12, height = 12) {
  return {
    name: "my-map", title: "My map", width, height, stone: [], entrances: [], rooms: [], findings: [],
    log: { ooze: "", skeleton: "", zombie: "", golem: "", mimic: "" }, keyTrack: 6, coinTrack: 40,
  };
}

// A map as the server draws it (GET /api/content/tomb/maps/{id}), made editable: a copy
// with its own name, since an edited map is a new map (docs/tomb-formats.md).
export function fromContent(content, name = `${content.id}-edited`, title = `${content.title} (edited)`) {
  const golem = Object.entries(content.golem_coins || {}).map(([c, n]) => `${c} ${n}`).join(" ");
  const log = Object.fromEntries(LOGS.map((k) => [k, k === "golem" ? golem : (content.log[k] || []).join(" ")]));
  return {
    name, title, width: content.width, height: content.height, stone: [...content.stone],
    entrances: content.entrances.map(({ square, side }) => ({ square, side })),
    rooms: content.rooms.map(({ square, side, finding, colour }) => (finding === "gem" ? { square, side, finding, colour } : { square, side, finding })),
    findings: content.findings.map(({ number, ...f }) => f),
    log, keyTrack: content.key_track, coinTrack: content.coin_track,
  };
}

// A draft read back (localStorage): a map of the right shape, or null.
export function fromDraft(data) {
  if (!data || typeof data !== "object" || !Number.isInteger(data.width) || !Number.isInteger(data.height)) return null;
  if (data.width < MIN_SIZE || data.width > MAX_SIZE || data.height < MIN_SIZE || data.height > MAX_SIZE) return null;
  const base = emptyMap(data.width, data.height);
  const list = (v) => (Array.isArray(v) ? v : []);
  return { ...base, ...data, stone: list(data.stone), entrances: list(data.entrances), rooms: list(data.rooms),
    findings: list(data.findings), log: { ...base.log, ...(data.log || {}) } };
}

const sortedSquares = (list) => [...list].sort((a, b) => a.localeCompare(b, "en", { numeric: true }));

// The map file's text, and for each line (from 1) the square it names, if any: a fault the
// server reports on a line is drawn on that square.
export function toText(map) {
  const lines = [];
  const squares = [null]; // lines are numbered from 1
  const add = (text, square = null) => { lines.push(text); squares.push(square); };
  add("# Made in the map editor of mummy. Format: docs/tomb-formats.md, Maps.");
  add(`name: ${map.name}`);
  if (map.title) add(`title: ${map.title}`);
  add("grid:");
  const stone = new Set(map.stone);
  for (let y = 0; y < map.height; y++) {
    let row = "";
    for (let x = 0; x < map.width; x++) row += stone.has(squareName(x, y)) ? "#" : ".";
    add(`  ${row}`);
  }
  add("end");
  for (const e of map.entrances) add(`entrance: ${e.square} ${e.side}`, e.square);
  for (const r of map.rooms) add(`room: ${r.square} ${r.side} ${r.finding === "gem" ? `gem ${r.colour}` : "sarcophagus"}`, r.square);
  for (const kind of FINDING_ORDER) {
    for (const f of map.findings.filter((g) => g.kind === kind)) {
      const extra = kind === "coins" ? ` ${f.amount}` : kind === "golem" ? ` ${f.colour}` : kind === "item" ? ` ${f.item}` : "";
      add(`${kind}: ${f.square}${extra}`, f.square);
    }
  }
  for (const k of LOGS) add(`log ${k}: ${String(map.log[k] || "").trim()}`.trimEnd());
  add(`key-track: ${map.keyTrack}`);
  add(`coin-track: ${map.coinTrack}`);
  return { text: `${lines.join("\n")}\n`, squares };
}

// The map as the game's drawing takes it (the server's map content), faults and all: the
// editor shows what is drawn while it is still being checked.
export function toDrawing(map) {
  const numbers = {};
  const number = (kind) => { numbers[kind] = (numbers[kind] || 0) + 1; return numbers[kind]; };
  const findings = [];
  for (const kind of FINDING_ORDER) {
    for (const f of map.findings.filter((g) => g.kind === kind)) {
      findings.push(kind === "ooze" || kind === "mimic" ? { ...f, number: number(kind) } : { ...f });
    }
  }
  return {
    id: map.name, title: map.title || map.name, width: map.width, height: map.height, stone: sortedSquares(map.stone),
    entrances: map.entrances.map((e) => ({ ...e, edge: `${e.square}${e.side.toLowerCase()}` })),
    rooms: map.rooms.map((r) => ({ colour: null, ...r, opening: `${r.square}${r.side.toLowerCase()}` })),
    findings,
  };
}

const entries = (text) => String(text || "").split(/\s+/).filter(Boolean);

// What the Monster Log must hold for the map drawn (T5.2, T10), and what it holds: the
// lines the parser would refuse, listed all at once ({what, have, need, ok}).
export function counts(map) {
  const of = (kind) => map.findings.filter((f) => f.kind === kind);
  const sarcophagi = map.rooms.filter((r) => r.finding === "sarcophagus").length;
  const gems = COLOURS.filter((c) => map.rooms.some((r) => r.finding === "gem" && r.colour === c));
  const golems = COLOURS.filter((c) => of("golem").some((f) => f.colour === c));
  const golemLog = entries(map.log.golem).filter((_, i) => i % 2 === 0);
  const list = (xs) => (xs.length ? xs.join(" ") : "none");
  const rows = [
    { what: "log ooze (one per ooze)", have: entries(map.log.ooze).length, need: of("ooze").length },
    { what: "log skeleton (one per ooze)", have: entries(map.log.skeleton).length, need: of("ooze").length },
    { what: "log zombie (one per sarcophagus)", have: entries(map.log.zombie).length, need: sarcophagi },
    { what: "log mimic (one per mimic)", have: entries(map.log.mimic).length, need: of("mimic").length },
    { what: "golems (one per gem colour)", have: list(golems), need: list(gems) },
    { what: "log golem (one per golem)", have: list(golemLog), need: list(golems) },
    { what: "entrances (at least one)", have: map.entrances.length, need: "1 or more", ok: map.entrances.length > 0 },
  ];
  return rows.map((r) => ({ ...r, ok: r.ok ?? String(r.have) === String(r.need) }));
}

// Each log made as long as the map needs, keeping the values given and going on in the
// manner of Map 1 (oozes 1; skeletons and mimics 1 1 2 2 3 3; zombies 2 2 3 3; golems 2
// for the first two colours, 3 after).
export function fillLog(map) {
  const need = (kind) => map.findings.filter((f) => f.kind === kind).length;
  const sarcophagi = map.rooms.filter((r) => r.finding === "sarcophagus").length;
  const pattern = { ooze: () => 1, skeleton: (i) => Math.min(3, 1 + Math.floor(i / 2)), zombie: (i) => Math.min(3, 2 + Math.floor(i / 2)), mimic: (i) => Math.min(3, 1 + Math.floor(i / 2)) };
  const wanted = { ooze: need("ooze"), skeleton: need("ooze"), zombie: sarcophagi, mimic: need("mimic") };
  const log = { ...map.log };
  for (const [k, n] of Object.entries(wanted)) {
    const have = entries(log[k]).slice(0, n);
    while (have.length < n) have.push(String(pattern[k](have.length)));
    log[k] = have.join(" ");
  }
  const given = Object.fromEntries(entries(map.log.golem).flatMap((t, i, all) => (i % 2 === 0 ? [[t, all[i + 1]]] : [])));
  const golems = COLOURS.filter((c) => map.findings.some((f) => f.kind === "golem" && f.colour === c));
  log.golem = golems.map((c, i) => `${c} ${given[c] || (i < 2 ? 2 : 3)}`).join(" ");
  return { ...map, log };
}

// -- changes: each returns a new map ------------------------------------------------------
export function withStone(map, square, stone) {
  const set = new Set(map.stone);
  if (stone) set.add(square); else set.delete(square);
  return { ...map, stone: [...set] };
}

// An entrance added, or taken away if it is there.
export function toggleEntrance(map, square, side) {
  const there = map.entrances.some((e) => e.square === square && e.side === side);
  const entrances = there ? map.entrances.filter((e) => !(e.square === square && e.side === side)) : [...map.entrances, { square, side }];
  return { ...map, entrances };
}

const sameThing = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// A room on the square (its opening side and finding), or taken away if the same is there.
export function toggleRoom(map, room) {
  const old = map.rooms.find((r) => r.square === room.square);
  const rooms = map.rooms.filter((r) => r.square !== room.square);
  if (!old || !sameThing(old, room)) rooms.push(room);
  return { ...map, rooms };
}

// A finding on the square (one per square, T5.1), or taken away if the same is there.
export function toggleFinding(map, finding) {
  const old = map.findings.find((f) => f.square === finding.square);
  const findings = map.findings.filter((f) => f.square !== finding.square);
  if (!old || !sameThing(old, finding)) findings.push(finding);
  return { ...map, findings };
}

// Everything on the square but its stone: room, finding, entrances.
export function erase(map, square) {
  return { ...map, rooms: map.rooms.filter((r) => r.square !== square), findings: map.findings.filter((f) => f.square !== square),
    entrances: map.entrances.filter((e) => e.square !== square) };
}

// The map on a grid of another size: what falls off it is dropped.
export function resized(map, width, height) {
  const on = (sq) => { const p = parseSquare(sq); return Boolean(p) && p[0] < width && p[1] < height; };
  return { ...map, width, height, stone: map.stone.filter(on), entrances: map.entrances.filter((e) => on(e.square)),
    rooms: map.rooms.filter((r) => on(r.square)), findings: map.findings.filter((f) => on(f.square)) };
}
