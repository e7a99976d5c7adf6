// The map editor (/editor, docs/web.md "Editor"): a map drawn square by square with a
// tool (stone, rooms, entrances, findings, erase), checked by the server after each edit
// by the same rules as `mummy check-map` (T10, POST /api/maps/check) with the fault shown
// on its square, kept as a draft in this browser, saved as a map file, and played at once.
// The map itself is js/editor/model.js's; the grid js/editor/grid.js; "Play it" play.js.
import { api, content, errorText } from "../api.js";
import { $, h, parseSquare, squareName } from "../dom.js";
import { touchScreen } from "../tomb/layout.js";
import { Grid, squareWords } from "./grid.js";
import {
  LOGS, MAX_SIZE, MIN_SIZE, counts, emptyMap, erase, fillLog, fromContent, fromDraft, resized, toText,
  toggleEntrance, toggleFinding, toggleRoom, withStone,
} from "./model.js";
import { setUpPlay } from "./play.js";

const DRAFT_KEY = "mummy.editor.draft";
const CHECK_DELAY = 250; // ms after the last edit before the map is checked
const HISTORY = 200; // edits Undo can take back
const MAX_TEXT = 20_000; // the longest map text the server takes (mummy.tomb.content.MAX_MAP_TEXT)
const STEP = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };

const HELP = {
  stone: "Click a square to turn it to stone, or stone back to a free square; drag to paint more squares the same way.",
  room: "Click a square: a room there (its square becomes stone) with the opening and finding chosen; click the same room again to take it away.",
  entrance: "Click a square at the edge of the map: an entrance on that side of it (T1.3); click it again to take it away.",
  finding: "Click a free square: the finding chosen goes there, one a square; click it again to take it away.",
  erase: "Click or drag: each square becomes free and empty (no stone, room, finding or entrance).",
};

const state = {
  map: emptyMap(),
  tool: "stone",
  paint: true, // the stone tool's drag: stone (true) or free squares
  dragged: false, // the drag under way has changed the map (and is kept for Undo)
  history: [],
  fit: true,
  check: { text: null, result: null, squares: [null], error: null },
  seq: 0,
  timer: 0,
  running: null, // the check on its way (a promise)
  maps: {}, // the packaged maps' drawings (/api/content/tomb)
};

let grid;

// -- editing ------------------------------------------------------------------------------
function sameMap(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

// The map changed to `next`: kept for Undo (`record`), the log fitted to it (`fit`, for an
// edit of its rooms and findings while "Fit the log" is on), drawn, kept, checked.
// Returns whether anything changed.
function edit(next, { record = true, fit = false, fields = false } = {}) {
  if (fit && state.fit) next = fillLog(next);
  if (sameMap(next, state.map)) return false;
  if (record) {
    state.history.push(state.map);
    if (state.history.length > HISTORY) state.history.shift();
  }
  state.map = next;
  changed({ fields });
  return true;
}

function changed({ fields = false } = {}) {
  grid.draw(state.map, faultSquare());
  renderCounts();
  renderText();
  renderFields(fields);
  $("undo").disabled = !state.history.length;
  saveDraft();
  scheduleCheck();
}

function undo() {
  if (!state.history.length) return;
  state.map = state.history.pop();
  changed({ fields: true });
}

// The side of `square` that faces a free square on the map (a room's opening), north first.
function openingToward(map, square) {
  const [x, y] = parseSquare(square);
  const stone = new Set(map.stone);
  for (const side of ["N", "E", "S", "W"]) {
    const [dx, dy] = STEP[side];
    const nx = x + dx;
    const ny = y + dy;
    if (nx >= 0 && ny >= 0 && nx < map.width && ny < map.height && !stone.has(squareName(nx, ny))) return side;
  }
  return "N";
}

// The border nearest to `square` (an entrance's side), north first on a corner.
function nearestBorder(map, square) {
  const [x, y] = parseSquare(square);
  const away = { N: y, E: map.width - 1 - x, S: map.height - 1 - y, W: x };
  return ["N", "E", "S", "W"].reduce((best, side) => (away[side] < away[best] ? side : best), "N");
}

// The chosen tool used on `square` (first: the press; later squares come from a drag).
function useTool(square, { first }) {
  const map = state.map;
  const tool = state.tool;
  if (first) state.dragged = false; // a drag is undone at once: kept once, at its first change
  if (tool === "stone") {
    if (first) state.paint = !map.stone.includes(square);
    if (edit(withStone(map, square, state.paint), { record: !state.dragged })) state.dragged = true;
  } else if (tool === "erase") {
    if (edit(withStone(erase(map, square), square, false), { record: !state.dragged, fit: true })) state.dragged = true;
  } else if (first && tool === "room") {
    const holds = $("room-holds").value;
    const side = $("room-side").value || openingToward(map, square);
    const room = holds === "sarcophagus" ? { square, side, finding: "sarcophagus" } : { square, side, finding: "gem", colour: holds };
    let next = toggleRoom(map, room);
    if (next.rooms.some((r) => r.square === square)) next = withStone(next, square, true); // a room is a stone square
    edit(next, { fit: true });
  } else if (first && tool === "entrance") {
    edit(toggleEntrance(map, square, $("entrance-side").value || nearestBorder(map, square)));
  } else if (first && tool === "finding") {
    const kind = $("finding-kind").value;
    const finding = { square, kind };
    if (kind === "coins") finding.amount = Math.max(1, Math.floor(Number($("coin-amount").value)) || 1);
    if (kind === "golem") finding.colour = $("golem-colour").value;
    if (kind === "item") finding.item = $("item-name").value;
    edit(toggleFinding(map, finding), { fit: true });
  }
  showSquare(square);
}

function chooseTool(tool) {
  state.tool = tool;
  for (const b of document.querySelectorAll("#tools [data-tool]")) b.setAttribute("aria-pressed", String(b.dataset.tool === tool));
  $("grid").classList.toggle("paint", tool === "stone" || tool === "erase");
  renderOptions();
}

function renderOptions() {
  const kind = $("finding-kind").value;
  for (const label of document.querySelectorAll("#tool-options [data-tools]")) {
    const kinds = label.dataset.kinds;
    label.hidden = !label.dataset.tools.split(" ").includes(state.tool) || Boolean(kinds && !kinds.split(" ").includes(kind));
  }
  $("tool-options").hidden = state.tool === "stone" || state.tool === "erase";
  $("tool-help").textContent = touchScreen() ? HELP[state.tool].replace(/Click/g, "Tap").replace(/click/g, "tap") : HELP[state.tool];
}

function showSquare(square) {
  $("square-info").textContent = square ? squareWords(state.map, square)
    : touchScreen() ? "Tap a square to use the tool there; the line here then says what the square holds."
      : "Point at a square to see what it holds; on the keyboard, focus the map and use the arrow keys.";
}

// -- the check (T10) ----------------------------------------------------------------------
function scheduleCheck() {
  clearTimeout(state.timer);
  $("check").dataset.state = "checking";
  $("play").disabled = true;
  state.timer = setTimeout(() => { state.timer = 0; runCheck(); }, CHECK_DELAY);
}

// The map's text checked now (if it was not already): resolves once the answer is shown.
function runCheck() {
  clearTimeout(state.timer);
  state.timer = 0;
  const { text, squares } = toText(state.map);
  if (text === state.check.text) {
    showCheck();
    return Promise.resolve();
  }
  const seq = ++state.seq;
  state.running = api("/api/maps/check", { method: "POST", body: { text } })
    .then((result) => ({ text, squares, result, error: null }))
    .catch((error) => ({ text, squares, result: null, error: errorText(error) }))
    .then((check) => {
      if (seq !== state.seq) return state.running; // an older answer, late: the newer one shows
      state.check = check;
      grid.draw(state.map, faultSquare());
      renderText();
      showCheck();
      return undefined;
    });
  return state.running;
}

function currentText() { return toText(state.map).text; }

function checkedOk() {
  const c = state.check;
  return Boolean(c.result && c.result.ok && c.text === currentText());
}

function faultSquare() {
  const c = state.check;
  if (!c.result || c.result.ok) return null;
  return c.result.fault.square || c.squares[c.result.fault.line] || null;
}

// The verdict in words, changed only when it says something else (it is a live region:
// a screen reader reads it out at each change).
function showCheck() {
  const c = state.check;
  if (c.text !== currentText()) return; // a newer edit is on its way to the check
  const said = $("verdict");
  const box = h("div");
  const n = (count, one, many) => `${count} ${count === 1 ? one : many}`;
  const m = state.map;
  if (c.error) {
    $("check").dataset.state = "error";
    box.replaceChildren(h("p", { class: "message error" }, `The check did not answer: ${c.error}`));
  } else if (c.result.ok) {
    $("check").dataset.state = "ok";
    box.replaceChildren(
      h("p", { class: "verdict-line ok" }, "✔ Valid: the map passes every check of rule T10, as ", h("code", {}, "mummy check-map"), " would."),
      h("p", { class: "muted" }, `${m.width} × ${m.height}, ${n(m.rooms.length, "room", "rooms")}, ${n(m.entrances.length, "entrance", "entrances")}, `
        + `${n(m.findings.length, "finding", "findings")}. Played as ${c.result.id}.`));
  } else {
    $("check").dataset.state = "fault";
    const { line, message } = c.result.fault;
    const square = faultSquare();
    // A missing line is reported on the file's last line: no line of the file to show.
    const lineText = /^the map has no /.test(message) ? "" : (c.text.split("\n")[line - 1] || "").trim();
    box.replaceChildren(...[
      h("p", { class: "verdict-line fault" }, "✖ Not valid yet (rule T10): ", h("span", { id: "fault-message" }, message)),
      lineText ? h("p", { class: "muted" }, `Line ${line} of the file: `, h("code", {}, lineText)) : null,
      square ? h("p", {}, `The square ${square} is marked on the map with a `, h("strong", { class: "bang" }, "!"), ".") : null,
    ].filter(Boolean));
  }
  if (said.innerHTML !== box.innerHTML) said.replaceChildren(...box.childNodes);
  $("play").disabled = !checkedOk();
}

// -- the panels ---------------------------------------------------------------------------
const FIELDS = {
  "map-name": (m) => m.name, "map-title-input": (m) => m.title, "map-width": (m) => m.width, "map-height": (m) => m.height,
  "key-track": (m) => m.keyTrack, "coin-track": (m) => m.coinTrack,
  ...Object.fromEntries(LOGS.map((k) => [`log-${k}`, (m) => m.log[k] || ""])),
};

// The fields from the map (`all`: even the one being typed in; else the log's only, which
// fitting changes).
function renderFields(all) {
  for (const [id, value] of Object.entries(FIELDS)) {
    if (!all && !id.startsWith("log-")) continue;
    const input = $(id);
    if (document.activeElement !== input || all) input.value = String(value(state.map));
  }
}

function renderCounts() {
  const rows = counts(state.map);
  $("counts").replaceChildren(
    h("caption", { class: "sr-only" }, "What the Monster Log must hold for this map"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "The map needs"), h("th", { scope: "col" }, "Has"), h("th", { scope: "col" }, "Needs"),
      h("th", { scope: "col" }, h("span", { class: "sr-only" }, "Matches")))),
    h("tbody", {}, rows.map((r) => h("tr", { class: r.ok ? "ok" : "short", "data-count": r.what },
      h("td", {}, r.what), h("td", {}, String(r.have)), h("td", {}, String(r.need)),
      h("td", { class: "mark" }, r.ok ? "✔" : "✖ not yet")))));
}

function renderText() {
  const c = state.check;
  const faultLine = c.result && !c.result.ok && c.text === currentText() ? c.result.fault.line : 0;
  const lines = currentText().replace(/\n$/, "").split("\n");
  $("map-text").replaceChildren(...lines.map((line, i) => h("span", { class: i + 1 === faultLine ? "line fault-line" : "line" }, `${line}\n`)));
}

function say(el, text, kind = "info") {
  el.textContent = text || "";
  el.className = text ? `message ${kind}` : "message";
}

// -- start, open, save --------------------------------------------------------------------
function saveDraft() {
  try { localStorage.setItem(DRAFT_KEY, JSON.stringify({ map: state.map, fit: state.fit })); } catch { /* not kept */ }
}

function loadDraft() {
  try {
    const data = JSON.parse(localStorage.getItem(DRAFT_KEY) || "null");
    const map = data && fromDraft(data.map);
    if (!map) return null;
    toText(map); // a draft that cannot be written out (damaged) is left aside
    return { map, fit: data.fit !== false };
  } catch { return null; }
}

function startFrom(id) {
  const from = state.maps[id];
  edit(from ? fromContent(from) : emptyMap(), { fields: true });
  say($("file-message"), from ? `Started from ${from.title}: an edited map is a new map, named ${state.map.name}. Undo goes back.`
    : "Started an empty map. Undo goes back.");
}

function fileName(map) {
  return `${String(map.name || "map").replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+/, "") || "map"}.txt`;
}

function download() {
  const url = URL.createObjectURL(new Blob([currentText()], { type: "text/plain" }));
  const a = h("a", { href: url, download: fileName(state.map), class: "sr-only" });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  say($("file-message"), `Saved as ${fileName(state.map)}${checkedOk() ? "" : ", though the map is not valid yet (T10)"}.`);
}

// A map file opened: checked by the server (T10), and made editable if valid.
async function openFile(file) {
  if (!file) return;
  const el = $("file-message");
  try {
    const text = await file.text();
    if (text.length > MAX_TEXT) {
      say(el, `${file.name} is not a map file: a map's text is at most ${MAX_TEXT} characters.`, "error");
      return;
    }
    const result = await api("/api/maps/check", { method: "POST", body: { text } });
    if (!result.ok) {
      const { line, message } = result.fault;
      say(el, `${file.name} is not a valid map (T10): line ${line}: ${message}. Only a valid map file opens here.`, "error");
      return;
    }
    const named = /^\s*name:\s*(.+?)\s*$/m.exec(text);
    edit(fromContent(result.map, named ? named[1] : file.name.replace(/\.txt$/i, ""), result.map.title), { fields: true });
    say(el, `Opened ${file.name}. Undo goes back.`);
  } catch (error) {
    say(el, `${file.name} did not open: ${errorText(error)}`, "error");
  } finally {
    $("open-file").value = "";
  }
}

// -- the page -----------------------------------------------------------------------------
function listen() {
  for (const b of document.querySelectorAll("#tools [data-tool]")) b.addEventListener("click", () => chooseTool(b.dataset.tool));
  $("finding-kind").addEventListener("change", renderOptions);
  $("undo").addEventListener("click", undo);
  document.addEventListener("keydown", (e) => {
    const typing = e.target.closest && e.target.closest("input, select, textarea");
    if ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === "z" && !typing) {
      e.preventDefault();
      undo();
    }
  });
  $("map-name").addEventListener("input", (e) => edit({ ...state.map, name: e.target.value.trim() }, { record: false }));
  $("map-title-input").addEventListener("input", (e) => edit({ ...state.map, title: e.target.value.trim() }, { record: false }));
  for (const [id, key] of [["key-track", "keyTrack"], ["coin-track", "coinTrack"]]) {
    $(id).addEventListener("input", (e) => {
      const n = Number(e.target.value);
      edit({ ...state.map, [key]: Number.isInteger(n) && e.target.value.trim() ? n : e.target.value.trim() }, { record: false });
    });
  }
  for (const id of ["map-width", "map-height"]) {
    $(id).addEventListener("change", () => {
      const size = (v, old) => (Number.isInteger(Number(v)) && v !== "" ? Math.max(MIN_SIZE, Math.min(MAX_SIZE, Number(v))) : old);
      const w = size($("map-width").value, state.map.width);
      const hgt = size($("map-height").value, state.map.height);
      if (w !== state.map.width || hgt !== state.map.height) edit(resized(state.map, w, hgt), { fit: true });
      renderFields(true);
    });
  }
  for (const k of LOGS) {
    $(`log-${k}`).addEventListener("input", (e) => edit({ ...state.map, log: { ...state.map.log, [k]: e.target.value } }, { record: false }));
  }
  $("fit-log").addEventListener("change", (e) => {
    state.fit = e.target.checked;
    if (state.fit) edit(fillLog(state.map));
    saveDraft();
  });
  $("fill-log").addEventListener("click", () => edit(fillLog(state.map)));
  $("start").addEventListener("click", () => startFrom($("start-from").value));
  $("download").addEventListener("click", download);
  $("open-file").addEventListener("change", (e) => openFile(e.target.files[0]));
}

async function main() {
  grid = new Grid($("grid"), { onSquare: useTool, onHover: showSquare });
  listen();
  setUpPlay({ mapText: async () => { await runCheck(); return checkedOk() ? currentText() : null; } });
  chooseTool("stone");
  showSquare(null);

  const asked = new URLSearchParams(location.search).get("from");
  try {
    const tomb = await content("tomb");
    state.maps = tomb.maps;
    $("start-from").append(...Object.values(tomb.maps).map((m) => h("option", { value: m.id }, m.title)));
  } catch (error) {
    say($("file-message"), `The packaged maps did not load: ${errorText(error)}`, "error");
  }
  const draft = loadDraft();
  if (asked !== null) {
    state.map = state.maps[asked] ? fromContent(state.maps[asked]) : emptyMap();
    $("start-from").value = state.maps[asked] ? asked : "";
  } else if (draft && draft.map) {
    state.map = draft.map;
    state.fit = draft.fit;
    say($("file-message"), "Your draft from this browser is back. To begin another map, Start from one here (Undo comes back to the draft).");
  }
  $("fit-log").checked = state.fit;
  try {
    changed({ fields: true });
  } catch {
    state.map = emptyMap(); // a draft damaged beyond drawing
    changed({ fields: true });
    say($("file-message"), "The draft kept in this browser could not be read: here is an empty map.", "error");
  }
  await runCheck();
  $("app").dataset.ready = "yes";
}

main();
