// The Tomb's panels beside the sheet: players, backpack, Monster Log, Tile Table, score
// and the final results. Each draws from a sheet of the snapshot and the content; the
// rules' constants (rounds, alerts, row bonuses) come from the content (constants.js).
import { h } from "../dom.js";
import { count } from "../games.js";
import { HELPER_NAME } from "./actions.js";
import { COLOUR_LETTER, ITEM_LETTER, drawSheet, miniShape } from "./draw.js";
import { fold } from "./layout.js";

const ITEM_NAME = { wand: "Wand", shovel: "Shovel", hammer: "Hammer", "skeleton-key": "Skeleton Key" };

// A sheet's phase in words ("after round 20").
export function phaseName(phase, rules) {
  const names = { play: "playing", waiting: "round ended", after: `after round ${rules.rounds}`, done: "finished" };
  return names[phase] || phase;
}

// A sheet's score, line by line: the lines, their order and their labels are the
// content's (`results.lines`, the engine's: the results screen shows the same), the
// total last.
export function scoreTable(score, content) {
  const rows = content.results.lines.map(([k, label]) => (k === "total"
    ? h("tr", { class: "total" }, h("th", {}, label), h("th", { class: "num", "data-total": "" }, String(score.total)))
    : h("tr", { "data-line": k }, h("td", {}, label), h("td", { class: "num" }, String(score.lines[k])))));
  return h("table", { class: "lines score" }, h("tbody", {}, rows));
}

// The Tile Table, made once for each state of the sheet's table (what is marked and
// paid) and copied for each drawing: the page is drawn again on every move, and its
// dozen pictures of shapes would be built again each time for what seldom changes (the
// last few states are kept: a move and its undo go back and forth between two).
const made = new WeakMap(); // content -> Map(key -> table)
export function tileTable(sheet, content, rules) {
  if (!made.has(content)) made.set(content, new Map());
  const tables = made.get(content);
  const key = JSON.stringify([sheet.tracks.tile_table, rules.row_bonus]);
  if (!tables.has(key)) {
    if (tables.size >= 8) tables.delete(tables.keys().next().value);
    tables.set(key, makeTileTable(sheet, content, rules));
  }
  return tables.get(key).cloneNode(true);
}

function makeTileTable(sheet, content, rules) {
  const marked = new Set(sheet.tracks.tile_table.marked);
  const rows = new Set(sheet.tracks.tile_table.rows_paid);
  const cols = new Set(sheet.tracks.tile_table.columns_paid);
  const body = content.table.map(([a, b], i) => {
    const v = i + 1;
    const bonus = rules.row_bonus[i];
    const cell = (shape) => h("td", { class: marked.has(shape) ? "marked" : "", "data-shape": shape, title: `${shape} ${content.shapes[shape].name}` },
      miniShape(content.shapes[shape].orients.r0), h("span", { class: "shape-id" }, shape), marked.has(shape) ? h("span", { class: "mark", "aria-label": "marked" }, "✓") : null);
    return h("tr", {}, h("th", {}, String(v)), cell(a), cell(b),
      h("td", { class: rows.has(v) ? "paid" : "", title: `both marked: a bonus ${bonus}` }, `+${bonus}`, rows.has(v) ? " ✓" : ""));
  });
  body.push(h("tr", {}, h("th", {}, ""), ...["a", "b"].map((c) => h("td", { class: cols.has(c) ? "paid" : "", title: "all six marked: a key" }, "key", cols.has(c) ? " ✓" : "")), h("td", {})));
  return h("table", { class: "tile-table" }, h("thead", {}, h("tr", {}, h("th", {}, "die"), h("th", {}, "a"), h("th", {}, "b"), h("th", {}, "row"))), h("tbody", {}, body));
}

// A golem's gem on the Monster Log: found (circled), then marked off with its golem (T5.3).
function gemBox(e) {
  const words = { open: "not found yet", circled: "found (circled)", defeated: "marked off with its golem" }[e.state];
  return h("span", { class: `mbox gem ${e.state}`, "data-gem": e.gem, title: `${e.gem} gem: ${words}`, "aria-label": `${e.gem} gem: ${words}` },
    e.state === "defeated" ? "✕" : e.state === "circled" ? "◆" : "◇");
}

// One row of the Monster Log: its boxes, and the defeats the chosen die can make of it.
function monsterRow(title, entries, monster, defeats, act) {
  const r = h("div", { class: "mrow", "data-monster": monster || title.toLowerCase() }, h("span", { class: "mname" }, title));
  const boxes = h("span", { class: "mboxes" });
  entries.forEach((e) => boxes.append(e.gem ? gemBox(e) : h("span", { class: `mbox ${e.state}`, title: `${e.state}${e.coins ? `, ${e.coins} coins` : ""}` },
    e.state === "defeated" ? "✕" : e.state === "circled" ? "◯" : "·", e.coins ? h("sub", {}, String(e.coins)) : null)));
  r.append(boxes);
  for (const a of defeats.filter((d) => (d.monster === "golem" ? `golem.${d.colour}` : d.monster) === monster)) {
    r.append(h("button", { class: "defeat", "data-action": a.text, onclick: () => act(a.text) },
      `Defeat${a.item ? ` with ${HELPER_NAME[a.item]}` : ""}`));
  }
  return r;
}

// The Monster Log (◯ circled, ✕ defeated, with the coins each pays); `defeats` are the
// legal defeat actions of the chosen die, lit up on their rows.
export function monsterLog(sheet, map, defeats, act) {
  const m = sheet.tracks.monsters;
  const list = h("div", { class: "monster-log" });
  const row = (title, entries, monster) => list.append(monsterRow(title, entries, monster, defeats, act));
  const counted = (n, circled, defeated, coins) => Array.from({ length: n }, (_, i) => ({
    state: i < defeated ? "defeated" : i < circled ? "circled" : "open", coins: coins ? coins[i] : 0 }));
  row("Oozes", counted(map.log.ooze.length, m.oozes.circled, m.oozes.defeated, map.log.ooze), "ooze");
  row("Skeletons", Array.from({ length: map.log.skeleton.length }, (_, i) => ({
    state: m.skeletons.defeated.includes(i + 1) ? "defeated" : i < m.skeletons.circled ? "circled" : "open", coins: map.log.skeleton[i] })), "skeleton");
  row("Sarcophagi", counted(map.log.zombie.length, m.sarcophagi.circled, m.sarcophagi.opened, null), "sarcophagus");
  row("Zombies", counted(map.log.zombie.length, m.zombies.circled, m.zombies.defeated, map.log.zombie), "zombie");
  for (const [colour, g] of Object.entries(m.golems)) {
    row(`Golem ${COLOUR_LETTER[colour]} (${colour})`, [{ state: g.defeated ? "defeated" : g.circled ? "circled" : "open", coins: map.golem_coins[colour] },
      { gem: colour, state: g.gem && g.defeated ? "defeated" : g.gem ? "circled" : "open" }], `golem.${colour}`);
  }
  row("Mimics", counted(map.log.mimic.length, m.mimics.circled, m.mimics.defeated, map.log.mimic), "mimic");
  row("Mummy", sheet.tracks.mummy_hits.map((hit) => ({ state: "defeated", coins: hit.points })), "mummy");
  return list;
}

// Coins and keys with their tracks, the items with uses left, the Mummy's alert track.
export function backpack(sheet, map, rules) {
  const t = sheet.tracks;
  const items = Object.entries(t.items).map(([name, it]) => h("li", { class: it.found ? "found" : "missing", "data-item": name },
    h("span", { class: "item-letter" }, ITEM_LETTER[name]), ` ${ITEM_NAME[name]}: `,
    it.found ? `${it.uses} use${it.uses === 1 ? "" : "s"} left` : "not found"));
  const alerts = h("div", { class: "alerts", title: "Mummy alerts" },
    ...Array.from({ length: rules.alerts }, (_, i) => h("span", { class: i < t.alerts ? "alert on" : "alert" }, i < t.alerts ? "▲" : "△")));
  return h("div", { class: "backpack" },
    h("p", {}, h("strong", { "data-coins": String(t.coins) }, `Coins ${t.coins}`), h("span", { class: "muted" }, ` (gained ${t.coins_gained} of ${map.coin_track})`),
      " · ", h("strong", { "data-keys": String(t.keys) }, `Keys ${t.keys}`), h("span", { class: "muted" }, ` (gained ${t.keys_gained} of ${map.key_track})`)),
    h("ul", { class: "items" }, items),
    h("div", {}, h("span", {}, `Mummy alerts ${t.alerts}/${rules.alerts} `), alerts));
}

// Every player: name, bot, where they are in the round, points.
export function playersPanel(view, rules) {
  const s = view.state.sheets;
  return h("div", { class: "players", id: "players" }, ...s.map((sheet, i) => h("div", { class: `player${i === view.you ? " you" : ""}`, "data-player": String(i) },
    h("strong", {}, view.seats[i].name), view.seats[i].bot ? h("span", { class: "muted" }, ` (${view.seats[i].bot} bot)`) : null,
    " ", h("span", { class: `badge ${sheet.phase === "play" || sheet.phase === "after" ? "turn" : "done"}`, "data-phase": sheet.phase }, phaseName(sheet.phase, rules)),
    " ", h("span", { class: "muted" }, `${sheet.score.total} pts`))));
}

// The final scores, line by line, with the achievements; null while the game goes on.
export function resultsPanel(view, content) {
  const r = view.result;
  if (!r) return null;
  return h("section", { class: "panel results", id: "results" }, h("h2", {}, "Final scores"),
    ...r.scores.map((total, i) => h("div", { class: "result", "data-player": String(i) },
      h("h3", {}, `${r.places[i]}. ${view.seats[i].name}: ${count(total, content.results.units.total)}`),
      scoreTable({ lines: r.lines[i], total }, content),
      r.achievements[i].length ? h("p", { class: "achievements" }, "Achievements: ", r.achievements[i].join(", ")) : h("p", { class: "muted" }, "No achievement"))));
}

// The panels beside the map, each folding (layout.js): the final scores once the game is
// over, the players, the backpack, the Monster Log (with the chosen die's defeats lit up),
// the Tile Table, the score, and the other players' sheets (read only, their new tiles
// fading in; `sheets` as they are shown while their steps play, steps.js). `p` is the page (page.js).
export function sidePanels(p, sheet, map, you, fresh, sheets = p.view.state.sheets) {
  const { view, content, rules, ui } = p;
  const defeats = typeof ui.slot === "number" ? p.sourceActions().filter((a) => a.kind === "defeat") : [];
  const others = sheets.map((s, i) => ({ s, i })).filter(({ i }) => i !== you);
  return [
    resultsPanel(view, content),
    fold("players", "Players", {}, playersPanel(view, rules)),
    fold("backpack", ["Backpack ", h("span", { class: "muted summary-note" }, `${sheet.tracks.coins} coins · ${sheet.tracks.keys} keys`)], {}, backpack(sheet, map, rules)),
    fold("monsters", "Monster Log", {}, monsterLog(sheet, map, defeats, (t) => p.act(t))),
    fold("tiles", "Tile Table", {}, tileTable(sheet, content, rules)),
    fold("score", `Score ${sheet.score.total}`, { id: "score" }, scoreTable(sheet.score, content),
      sheet.score.achievements.length ? h("p", {}, "Achievements: ", sheet.score.achievements.join(", ")) : null),
    ...others.map(({ s, i }) => fold(`other-${i}`, [`${view.seats[i].name} `, h("span", { class: "badge", "data-phase": s.phase }, phaseName(s.phase, rules)), ` ${s.score.total} pts`],
      { class: "panel fold other", "data-other": String(i) },
      drawSheet(content.maps[s.map], s, { small: true, label: `${s.name}'s sheet (read only)`, fresh: fresh.get(i) }).root)),
  ];
}
