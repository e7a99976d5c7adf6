// The end of a game (contracts §3): a results screen over the game page, the same for
// every game. It says who won (solo: the score and what it means), puts every score line
// side by side for all players in the order they finished, lists the achievements, and
// for a solo game the personal best in this browser and the place on the leaderboard;
// then Rematch (or Join the rematch, once another player started it), Replay and New
// game. It folds away, so the final sheet can be looked at.
//
// The words come from the game's content (`results`, made by the server from the
// engine: mummy.web.content): the lines of the table and their order, what a total
// counts, the achievements and what each needs. What differs between games beyond that
// (where each line's value is, the headline, a solo game's mark) is in RESULTS below,
// keyed by the game's name (as games.js does).
import { api, content, errorText, seats } from "./api.js";
import { h, loadStylesheet, svg } from "./dom.js";
import { count, titleOf } from "./games.js";
import { PAR_MEANING, bulb, followPar, hasPar, parLine, pendingText } from "./par.js";

const ORDINAL = ["", "1st", "2nd", "3rd"];
const ordinal = (n) => ORDINAL[n] || `${n}th`;
// "Ann", "Ann and Bob", "Ann, Bob and Cy"
const andList = (xs) => (xs.length < 2 ? xs.join("") : `${xs.slice(0, -1).join(", ")} and ${xs.at(-1)}`);

// A trophy, drawn (no emoji font is needed).
const trophy = (cls = "trophy") => svg("svg", { class: cls, viewBox: "0 0 24 24", width: 24, height: 24, "aria-hidden": "true" },
  svg("path", { d: "M7 3h10v4a5 5 0 0 1-10 0zM7 5H4v1.5A3.5 3.5 0 0 0 7.5 10M17 5h3v1.5A3.5 3.5 0 0 1 16.5 10",
    fill: "none", stroke: "currentColor", "stroke-width": 1.7, "stroke-linejoin": "round" }),
  svg("path", { d: "M7 3h10v4a5 5 0 0 1-10 0z", fill: "currentColor" }),
  svg("path", { d: "M11 12h2v4h-2zM8 20h8v1.5H8zM9.5 16.5h5l.8 3.5H8.7z", fill: "currentColor" }));
const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// A seat's share of a result: each per-seat entry at the seat, the shared ones as they
// are (as POST /api/my-games gives a finished game's `result` for the asking seat).
export function shareOf(result, seat) {
  const n = result.places.length;
  return Object.fromEntries(Object.entries(result).map(([k, v]) => [k, Array.isArray(v) && v.length === n ? v[seat] : v]));
}

export const RESULTS = {
  tomb: {
    where: (view) => view.config.map,
    whereName: (map) => map.replace(/^map(\d+)$/, "Map $1"),
    // A line's value for a seat (the keys of the content's `results.lines`).
    value: (view, key, i) => (key === "total" ? view.result.scores[i] : view.result.lines[i][key]),
    headline(view, names, winners, words) {
      const best = view.result.scores[winners[0]];
      const tied = view.result.scores.filter((s) => s === best).length > winners.length;
      const points = count(best, words.units.total);
      if (winners.length > 1) return `${andList(winners.map((i) => names[i]))} share first place with ${points}`;
      return `${names[winners[0]]} wins with ${points}${tied ? " on the tie-break (fewer penalties, then more Mummy points, T7)" : ""}`;
    },
    solo(view, words) {
      return [`${view.result.scores[0]} Fame points`, "Solo, the aim is to beat your own score: every game on this map is a new try "
        + `with new dice. Achievements need a total of at least ${words.achievement_min} (T7).`, true];
    },
    // A solo game's mark for the personal best from a seat's share of its result
    // (higher is better), null for none.
    mark: (share) => share.scores,
    better: (a, b) => a > b,
    markText: (v, words) => count(v, words.units.total),
    unranked: () => null,
    boardText: (row, words) => count(row.score, words.units.total),
  },
  treasure: {
    where: (view) => view.config.sites[0],
    whereName: capital,
    value(view, key, i) {
      const r = view.result;
      const seat = view.state.seats[i];
      return {
        site: () => capital(seat.site),
        tiles: () => seat.tiles.length,
        turns: () => r.turns[i],
        filled: () => (r.reason === "full" && r.winner === i ? "✔ filled it" : "—"),
        total: () => `${r.squares[i]} of ${seat.squares}`,
      }[key]();
    },
    headline(view, names, winners, words) {
      const r = view.result;
      if (r.reason === "full") return `${names[r.winner]} filled their site and wins (R4.1)`;
      const who = andList(winners.map((i) => names[i]));
      return `No tile can be taken any more (R4.2): ${who} ${winners.length > 1 ? "share the win" : "wins"} `
        + `with ${count(r.squares[winners[0]], words.units.total)}`;
    },
    solo(view, words) {
      const r = view.result;
      const size = view.state.seats[0].squares;
      if (r.reason === "full") {
        return [`Site filled in ${count(r.turns[0], words.units.turns)}`, "Solo, the fewer turns the better (R4.3).", true];
      }
      return [`Unfinished: ${r.squares[0]} of ${size} ${words.units.total[1]}`,
        `No tile could fit any more after ${count(r.turns[0], words.units.turns)}: the game is reported as unfinished `
        + "and sets no record (R4.3).", false];
    },
    mark: (share) => (share.reason === "full" ? share.turns : null),
    better: (a, b) => a < b,
    markText: (v, words) => count(v, words.units.turns),
    unranked: (view) => (view.result.reason === "full" ? null : "an unfinished site sets no record (R4.3)"),
    boardText: (row, words) => count(row.turns, words.units.turns),
  },
};

// -- the table and the headline --------------------------------------------------------------
function ranked(view) {
  return view.seats.map((_, i) => i).sort((a, b) => view.result.places[a] - view.result.places[b] || a - b);
}

function resultsTable(view, kind, words) {
  const order = ranked(view);
  const name = (i) => `${view.seats[i].name}${i === view.you ? " (you)" : ""}`;
  const solo = view.seats.length === 1;
  const head = h("tr", {}, h("th", { scope: "col" }, solo ? "Line" : "Place"),
    ...order.map((i) => h("th", { scope: "col", class: `num${i === view.you ? " you" : ""}`, "data-seat": String(i) },
      solo ? null : [h("span", { class: "place" }, ordinal(view.result.places[i])), h("br")], name(i),
      view.seats[i].bot ? h("span", { class: "muted" }, ` (${view.seats[i].bot} bot)`) : null)));
  const rows = words.lines.map(([key, label]) => h("tr", { "data-line": key, class: key === "total" ? "total" : "" },
    h("th", { scope: "row" }, key === "total" ? `${label} (${words.rule})` : label),
    ...order.map((i) => h("td", { class: `num${i === view.you ? " you" : ""}`, "data-seat": String(i) }, String(kind.value(view, key, i))))));
  return h("div", { class: "results-table-wrap" },
    h("table", { class: "lines results-table" }, h("thead", {}, head), h("tbody", {}, rows)));
}

function banner(view, kind, words) {
  const names = view.seats.map((s) => s.name);
  const winners = view.seats.map((_, i) => i).filter((i) => view.result.places[i] === 1);
  if (view.seats.length === 1) {
    const [headline, meaning, success] = kind.solo(view, words);
    return h("div", { class: `results-banner solo${success ? "" : " unfinished"}` },
      h("p", { class: "headline" }, success ? trophy() : null, h("span", { id: "results-headline" }, headline)),
      hasPar(view) ? parParagraph(view) : null,
      hintsMark(view),
      h("p", { class: "meaning" }, meaning));
  }
  const mine = view.you === null || view.you === undefined ? null
    : `You finished ${ordinal(view.result.places[view.you])} of ${view.seats.length}.`;
  return h("div", { class: "results-banner", "data-winners": winners.join(",") },
    h("p", { class: "headline" }, trophy(), h("span", { id: "results-headline" }, kind.headline(view, names, winners, words))),
    mine ? h("p", { class: "meaning" }, mine) : null);
}

// The achievements the engine awards (the content's list, with what each needs); the
// result names who earned which.
function achievementsPanel(view, words) {
  if (!words.achievements.length) return null;
  const earnedBy = view.result.achievements;
  const item = ([name, needs]) => {
    const who = view.seats.map((s, i) => i).filter((i) => earnedBy[i].includes(name));
    const whoText = andList(who.map((i) => (i === view.you ? "you" : view.seats[i].name)));
    return [who.length > 0, h("li", { class: who.length ? "earned" : "missed", "data-achievement": name },
      who.length ? trophy("medal") : h("span", { class: "medal", "aria-hidden": "true" }, "○"), " ",
      h("strong", {}, name), `: ${needs}. `, who.length ? h("span", { class: "who" }, `Earned by ${whoText}.`) : null)];
  };
  const items = words.achievements.map(item);
  const earned = items.filter(([e]) => e).map(([, li]) => li);
  const missed = items.filter(([e]) => !e).map(([, li]) => li);
  // The ones earned in full; the others folded, to read what each would need.
  return h("section", { class: "results-achievements" },
    h("h3", {}, "Achievements", h("span", { class: "muted" }, ` (each also needs a total of at least ${words.achievement_min}, ${words.rule})`)),
    earned.length ? h("ul", { class: "earned" }, earned) : h("p", { class: "muted" }, "No achievement this game."),
    missed.length ? h("details", {}, h("summary", {}, earned.length ? "The others, and what each needs" : "What each achievement needs"),
      h("ul", {}, missed)) : null);
}

// -- a solo game: the personal best in this browser, and the leaderboard ---------------------
// One request: My games gives each finished game's result for the seat held (its share),
// the number of players and, for a solo game, its map or site.
async function personalBest(view, kind, words) {
  const tokens = seats.all().map((s) => s.token).slice(0, 100);
  const { games } = await api("/api/my-games", { method: "POST", body: { tokens } });
  const where = kind.where(view);
  const earlier = new Map(games.filter((g) => g.game === view.game && g.over && g.id !== view.id && g.players === 1
    && g.where === where && g.result).map((g) => [g.id, g]));
  const marks = [...earlier.values()].map((g) => kind.mark(g.result)).filter((m) => m !== null && m !== undefined);
  const place = kind.whereName(where);
  const now = kind.mark(shareOf(view.result, 0));
  const text = (v) => kind.markText(v, words);
  if (!marks.length) {
    return now === null ? `No finished game on ${place} in this browser sets a best yet.`
      : `Your first finished game on ${place} in this browser: ${text(now)} is the best to beat.`;
  }
  const best = marks.reduce((a, b) => (kind.better(b, a) ? b : a));
  const from = ` (from ${count(marks.length, ["earlier game", "earlier games"])} on ${place} in this browser)`;
  if (now !== null && kind.better(now, best)) return `A new personal best! Your best before was ${text(best)}${from}.`;
  if (now === best) return `Equal to your personal best of ${text(best)}${from}.`;
  return `Your personal best is ${text(best)}${from}.`;
}

async function boardRank(view, kind, words) {
  if (view.config.hints) return "Not on the leaderboard: hints were taken, so this was a practice game.";
  if (view.config.seed_chosen) return "Not on the leaderboard: this game's seed was chosen, so its dice were known.";
  const why = kind.unranked(view);
  if (why) return `Not on the leaderboard: ${why}.`;
  const where = kind.where(view);
  const [path, label] = view.daily
    ? [`/api/daily/${view.game}?day=${encodeURIComponent(view.daily)}`, `the daily challenge of ${view.daily}`]
    : [`/api/leaderboards/${view.game}?where=${encodeURIComponent(where)}`, `the ${kind.whereName(where)} leaderboard`];
  const rows = (await api(path)).leaderboard;
  const at = rows.findIndex((r) => r.id === view.id);
  if (at >= 0) return `Rank ${at + 1} of ${rows.length} on ${label}.`;
  if (!rows.length) return `Not on ${label}.`;
  return `Not in the top ${rows.length} of ${label} (number ${rows.length} has ${kind.boardText(rows.at(-1), words)}).`;
}

function soloPanel(view, kind, words) {
  const best = h("p", { id: "results-best" }, "Your personal best: looking…");
  const rank = h("p", { id: "results-rank" }, "Leaderboard: looking…");
  const fill = (node, promise) => promise.then((text) => { node.textContent = text; })
    .catch((error) => { node.textContent = `Not available now: ${errorText(error)}`; });
  fill(best, personalBest(view, kind, words));
  fill(rank, boardRank(view, kind, words));
  return h("section", { class: "results-solo" }, h("h3", {}, "How it compares"), best, rank);
}

// -- par: the strongest bot on the same dice (js/par.js) ------------------------------------
// The line under a solo game's headline: "143, par 161 on these dice: ...", or "Par: being
// computed…" until the server has it (it comes in a later view, or from asking).
function parParagraph(view) {
  const line = h("p", { class: "par-line", id: "results-par", title: PAR_MEANING });
  showPar(line, view.par ? { status: "done", par: view.par } : { status: "queued" });
  return line;
}

function showPar(line, status) {
  line.dataset.status = status.status;
  if (status.status === "done") {
    line.textContent = parLine(status.par);
    line.dataset.par = String(status.par.par);
    line.dataset.result = String(status.par.result);
  } else {
    line.textContent = pendingText(status);
  }
}

// While par is being computed: its progress, asked now and then, and the view that
// brings it (the server sends the game's pages the view again once it is stored).
function followParOf(view, live) {
  if (!hasPar(view) || view.par) return;
  const line = () => document.getElementById("results-par");
  const known = () => { const l = line(); return !l || l.dataset.status === "done"; };
  followPar(view.id, (status) => { const l = line(); if (l) showPar(l, status); }, known);
  if (!live) return;
  live.addEventListener("view", (e) => {
    const l = line();
    if (l && e.detail.par && l.dataset.status !== "done") showPar(l, { status: "done", par: e.detail.par });
  });
}

// A game in which hints were taken says so (a practice game: never on the boards).
function hintsMark(view) {
  const n = view.config.hints;
  if (!n) return null;
  return h("p", { class: "hints-mark", id: "results-hints" },
    h("span", { class: "badge hints" }, bulb(), ` ${n} ${n === 1 ? "hint" : "hints"} taken`), " A practice game: not on the best scores.");
}

// -- the rematch -----------------------------------------------------------------------------
// POST /api/games/{id}/rematch makes the rematch once and answers each seat with its own
// token only: the first click starts it, every later one (another player's, a second
// click) joins the same game. A browser holding several seats of the game (people
// sharing a screen) asks with each, and keeps each new seat.
async function rematch(view, live, note) {
  const first = !view.rematch;
  note.textContent = first ? "Starting the rematch…" : "Joining the rematch…";
  const path = `/api/games/${encodeURIComponent(view.id)}/rematch`;
  const mine = await api(path, { method: "POST", token: live.token });
  const own = mine.seats.find((s) => s.token);
  const more = seats.all().filter((s) => s.id === view.id && s.token !== live.token);
  for (const s of more) {
    const other = (await api(path, { method: "POST", token: s.token }).catch(() => null))?.seats.find((x) => x.token);
    if (other) seats.add({ id: mine.id, token: other.token, game: view.game, seat: other.seat, name: other.name });
  }
  seats.add({ id: mine.id, token: own.token, game: view.game, seat: own.seat, name: own.name });
  location.assign(own.invite);
}

// The Rematch button, as the view has it now: "Rematch" until one exists, then "Join
// the rematch" (or a link to it, for a browser that holds its seat already).
function rematchControl(view, live, note) {
  const held = view.rematch ? seats.all().find((s) => s.id === view.rematch) : null;
  if (held) return h("a", { class: "button primary", id: "rematch", href: `/play/${encodeURIComponent(view.rematch)}`, "data-rematch": view.rematch }, "Play the rematch");
  const button = h("button", { type: "button", class: "primary", id: "rematch", "data-rematch": view.rematch || "" },
    view.rematch ? "Join the rematch" : "Rematch");
  button.title = view.rematch ? "Another player started the rematch: take your seat in it"
    : "The same game, set-up and players again, on new dice";
  button.addEventListener("click", () => {
    button.disabled = true;
    rematch(view, live, note).catch((error) => { button.disabled = false; note.className = "message error"; note.textContent = errorText(error); });
  });
  return button;
}

function buttons(view, live, close) {
  const note = h("div", { class: "message", id: "results-note", role: "status" });
  const row = h("div", { class: "row results-buttons" });
  if (view.you !== null && view.you !== undefined && !view.daily) row.append(rematchControl(view, live, note));
  row.append(view.reveal ? h("a", { class: "button", href: `/replay/${encodeURIComponent(view.id)}`, id: "replay" }, "Replay")
    : h("span", { class: "muted" }, "The replay opens when the day is over."),
  h("a", { class: "button", href: "/", id: "new-game" }, "New game"),
  h("button", { type: "button", id: "results-close", onclick: close }, "See the sheet"));
  if (view.daily) note.textContent = "A daily challenge is one game a day, with no rematch: come back tomorrow for the next one.";
  else if (view.rematch && view.you !== null && view.you !== undefined) note.textContent = "A rematch has started: the same game on new dice.";
  return [row, note];
}

// -- the screen ------------------------------------------------------------------------------
// The lives whose later views this module follows: once each, however often the screen
// is drawn again, so that no update is handled twice.
const followed = new WeakSet();

// When a rematch appears in a later view (another player started it), the Rematch button
// becomes "Join the rematch"; nothing else on the screen changes.
function followRematch(live) {
  if (!live || followed.has(live)) return;
  followed.add(live);
  live.addEventListener("view", (e) => {
    const view = e.detail;
    const button = document.getElementById("rematch");
    if (!view.over || !view.rematch || !button || button.dataset.rematch === view.rematch) return;
    const note = document.getElementById("results-note");
    button.replaceWith(rematchControl(view, live, note));
    note.className = "message";
    note.textContent = "A rematch has started: the same game on new dice.";
  });
}

// Show the results of a finished view over the page (once; a later call replaces it,
// with its own elements and their handlers: none is added twice).
export async function showResults(view, live) {
  loadStylesheet("/static/css/results.css");
  const kind = RESULTS[view.game];
  if (!kind || !view.result) return null;
  const words = (await content(view.game)).results;
  document.getElementById("game-results")?.remove();
  document.getElementById("results-open")?.remove();
  const reopen = h("button", { type: "button", id: "results-open", class: "results-open", hidden: true }, trophy("icon"), " Results");
  const card = h("div", { class: "results-card" });
  const screen = h("section", { id: "game-results", class: "results-screen", role: "dialog", "aria-labelledby": "results-title" }, card);
  const close = () => { screen.hidden = true; reopen.hidden = false; reopen.focus(); };
  reopen.addEventListener("click", () => { screen.hidden = false; reopen.hidden = true; title.focus(); });
  screen.addEventListener("keydown", (e) => { if (e.key === "Escape") close(); });
  screen.addEventListener("click", (e) => { if (e.target === screen) close(); }); // outside the card
  const title = h("h2", { id: "results-title", tabindex: "-1" }, `Game over — ${titleOf(view.game)}`);
  card.append(title, banner(view, kind, words), resultsTable(view, kind, words), achievementsPanel(view, words) || "",
    view.seats.length === 1 && view.you === 0 ? soloPanel(view, kind, words) : "", ...buttons(view, live, close));
  document.body.append(screen, reopen);
  followRematch(live);
  followParOf(view, live);
  title.focus();
  return screen;
}
