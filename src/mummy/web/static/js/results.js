// The end of a game (contracts §3): a results screen over the game page, the same for
// every game. It says who won (solo: the score and what it means), puts every score line
// side by side for all players in the order they finished, lists the achievements, and
// for a solo game the personal best in this browser and the place on the leaderboard;
// then Rematch, Replay and New game. It folds away, so the final sheet can be looked at.
//
// What differs between games is in RESULTS below, keyed by the game's name (as games.js
// does): the lines of the table, the headline, a solo game's mark and its leaderboard.
import { api, errorText, seats } from "./api.js";
import { h, loadStylesheet, svg } from "./dom.js";
import { titleOf } from "./games.js";

const ORDINAL = ["", "1st", "2nd", "3rd"];
const ordinal = (n) => ORDINAL[n] || `${n}th`;
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
// "Ann", "Ann and Bob", "Ann, Bob and Cy"
const andList = (xs) => (xs.length < 2 ? xs.join("") : `${xs.slice(0, -1).join(", ")} and ${xs.at(-1)}`);

const TOMB_LINES = {
  oozes_x_skeletons: "Oozes × skeletons", zombies: "Zombies", golems: "Golems", mimics: "Mimics (4 each)",
  mummy: "Mummy hits", magic_items: "Magic items (5 each)", leftovers: "Leftovers (1 each)",
  entrances: "Connected entrances", penalties: "Penalties (−3 each open)",
};
// T7's achievements, each also needing a total of at least 180.
const TOMB_ACHIEVEMENTS = {
  "Master of the Undead": "every ooze, skeleton and zombie of the map defeated",
  "Magical Warden": "every golem defeated and all four magic items collected",
  "Treasure Hunter": "every mimic defeated, the key track filled once, and the Skeleton Key collected",
  "The Mapmaker": "no penalty points: no open opening, entrance or room",
  "Mummy Slayer": "all six hits on the Mummy",
};
// A trophy, drawn (no emoji font is needed).
const trophy = (cls = "trophy") => svg("svg", { class: cls, viewBox: "0 0 24 24", width: 24, height: 24, "aria-hidden": "true" },
  svg("path", { d: "M7 3h10v4a5 5 0 0 1-10 0zM7 5H4v1.5A3.5 3.5 0 0 0 7.5 10M17 5h3v1.5A3.5 3.5 0 0 1 16.5 10",
    fill: "none", stroke: "currentColor", "stroke-width": 1.7, "stroke-linejoin": "round" }),
  svg("path", { d: "M7 3h10v4a5 5 0 0 1-10 0z", fill: "currentColor" }),
  svg("path", { d: "M11 12h2v4h-2zM8 20h8v1.5H8zM9.5 16.5h5l.8 3.5H8.7z", fill: "currentColor" }));
const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

export const RESULTS = {
  tomb: {
    where: (view) => view.config.map,
    whereName: (map) => map.replace(/^map(\d+)$/, "Map $1"),
    // Rows of the table: [key, label, value per seat]; the last is the total.
    lines(view) {
      const r = view.result;
      const rows = Object.keys(r.lines[0]).map((k) => [k, TOMB_LINES[k] || k, r.lines.map((l) => l[k])]);
      return [...rows, ["total", "Total (T7)", r.scores]];
    },
    headline(view, names, winners) {
      const best = view.result.scores[winners[0]];
      const tied = view.result.scores.filter((s) => s === best).length > winners.length;
      if (winners.length > 1) return `${andList(winners.map((i) => names[i]))} share first place with ${best} points`;
      return `${names[winners[0]]} wins with ${best} points${tied ? " on the tie-break (fewer penalties, then more Mummy points, T7)" : ""}`;
    },
    solo(view) {
      const total = view.result.scores[0];
      return [`${total} Fame points`, "Solo, the aim is to beat your own score: every game on this map is a new try "
        + "with new dice. Achievements need a total of at least 180 (T7).", true];
    },
    achievements: (view) => ({ earned: view.result.achievements, all: TOMB_ACHIEVEMENTS }),
    // A solo game's mark for the personal best (higher is better), null for none.
    mark: (view) => view.result.scores[0],
    better: (a, b) => a > b,
    markText: (v) => `${v} points`,
    unranked: () => null,
    boardText: (row) => `${row.score} points`,
  },
  treasure: {
    where: (view) => view.config.sites[0],
    whereName: capital,
    lines(view) {
      const r = view.result;
      const seatsOf = view.state.seats;
      const filled = seatsOf.map((_, i) => (r.reason === "full" && r.winner === i ? "✔ filled it" : "—"));
      return [
        ["site", "Site", seatsOf.map((s) => capital(s.site))],
        ["tiles", "Tiles placed", seatsOf.map((s) => s.tiles.length)],
        ["turns", "Turns taken", r.turns],
        ["filled", "Filled the site (R4.1)", filled],
        ["total", "Squares covered", r.squares.map((n, i) => `${n} of ${seatsOf[i].squares}`)],
      ];
    },
    headline(view, names, winners) {
      const r = view.result;
      if (r.reason === "full") return `${names[r.winner]} filled their site and wins (R4.1)`;
      const who = andList(winners.map((i) => names[i]));
      return `No tile can be taken any more (R4.2): ${who} ${winners.length > 1 ? "share the win" : "wins"} `
        + `with ${plural(r.squares[winners[0]], "square")} covered`;
    },
    solo(view) {
      const r = view.result;
      const size = view.state.seats[0].squares;
      if (r.reason === "full") {
        return [`Site filled in ${plural(r.turns[0], "turn")}`, "Solo, the fewer turns the better (R4.3).", true];
      }
      return [`Unfinished: ${r.squares[0]} of ${size} squares covered`,
        `No tile could fit any more after ${plural(r.turns[0], "turn")}: the game is reported as unfinished `
        + "and sets no record (R4.3).", false];
    },
    achievements: () => null,
    mark: (view) => (view.result.reason === "full" ? view.result.turns[0] : null),
    better: (a, b) => a < b,
    markText: (v) => plural(v, "turn"),
    unranked: (view) => (view.result.reason === "full" ? null : "an unfinished site sets no record (R4.3)"),
    boardText: (row) => plural(row.turns, "turn"),
  },
};

// -- the table and the headline --------------------------------------------------------------
function ranked(view) {
  return view.seats.map((_, i) => i).sort((a, b) => view.result.places[a] - view.result.places[b] || a - b);
}

function resultsTable(view, kind) {
  const order = ranked(view);
  const name = (i) => `${view.seats[i].name}${i === view.you ? " (you)" : ""}`;
  const solo = view.seats.length === 1;
  const head = h("tr", {}, h("th", { scope: "col" }, solo ? "Line" : "Place"),
    ...order.map((i) => h("th", { scope: "col", class: `num${i === view.you ? " you" : ""}`, "data-seat": String(i) },
      solo ? null : [h("span", { class: "place" }, ordinal(view.result.places[i])), h("br")], name(i),
      view.seats[i].bot ? h("span", { class: "muted" }, ` (${view.seats[i].bot} bot)`) : null)));
  const rows = kind.lines(view).map(([key, label, values]) => h("tr", { "data-line": key, class: key === "total" ? "total" : "" },
    h("th", { scope: "row" }, label),
    ...order.map((i) => h("td", { class: `num${i === view.you ? " you" : ""}`, "data-seat": String(i) }, String(values[i])))));
  return h("div", { class: "results-table-wrap" },
    h("table", { class: "lines results-table" }, h("thead", {}, head), h("tbody", {}, rows)));
}

function banner(view, kind) {
  const names = view.seats.map((s) => s.name);
  const winners = view.seats.map((_, i) => i).filter((i) => view.result.places[i] === 1);
  if (view.seats.length === 1) {
    const [headline, meaning, success] = kind.solo(view);
    return h("div", { class: `results-banner solo${success ? "" : " unfinished"}` },
      h("p", { class: "headline" }, success ? trophy() : null, h("span", { id: "results-headline" }, headline)),
      h("p", { class: "meaning" }, meaning));
  }
  const mine = view.you === null || view.you === undefined ? null
    : `You finished ${ordinal(view.result.places[view.you])} of ${view.seats.length}.`;
  return h("div", { class: "results-banner", "data-winners": winners.join(",") },
    h("p", { class: "headline" }, trophy(), h("span", { id: "results-headline" }, kind.headline(view, names, winners))),
    mine ? h("p", { class: "meaning" }, mine) : null);
}

function achievementsPanel(view, kind) {
  const got = kind.achievements(view);
  if (!got) return null;
  const item = ([name, needs]) => {
    const who = view.seats.map((s, i) => i).filter((i) => got.earned[i].includes(name));
    const whoText = andList(who.map((i) => (i === view.you ? "you" : view.seats[i].name)));
    return [who.length > 0, h("li", { class: who.length ? "earned" : "missed", "data-achievement": name },
      who.length ? trophy("medal") : h("span", { class: "medal", "aria-hidden": "true" }, "○"), " ",
      h("strong", {}, name), `: ${needs}. `, who.length ? h("span", { class: "who" }, `Earned by ${whoText}.`) : null)];
  };
  const items = Object.entries(got.all).map(item);
  const earned = items.filter(([e]) => e).map(([, li]) => li);
  const missed = items.filter(([e]) => !e).map(([, li]) => li);
  // The ones earned in full; the others folded, to read what each would need.
  return h("section", { class: "results-achievements" },
    h("h3", {}, "Achievements", h("span", { class: "muted" }, " (each also needs a total of at least 180, T7)")),
    earned.length ? h("ul", { class: "earned" }, earned) : h("p", { class: "muted" }, "No achievement this game."),
    missed.length ? h("details", {}, h("summary", {}, earned.length ? "The others, and what each needs" : "What each achievement needs"),
      h("ul", {}, missed)) : null);
}

// -- a solo game: the personal best in this browser, and the leaderboard ---------------------
async function personalBest(view, kind) {
  const held = seats.all();
  const { games } = await api("/api/my-games", { method: "POST", body: { tokens: held.map((s) => s.token).slice(0, 100) } });
  const ids = [...new Set(games.filter((g) => g.game === view.game && g.over && g.id !== view.id).map((g) => g.id))].slice(0, 20);
  // My games names the games; each one's set-up and result are in its view (the newest 20).
  const views = await Promise.all(ids.map((id) => api(`/api/games/${encodeURIComponent(id)}`,
    { token: held.find((s) => s.id === id).token }).catch(() => null)));
  const where = kind.where(view);
  const marks = views.filter((v) => v && v.seats.length === 1 && kind.where(v) === where)
    .map((v) => kind.mark(v)).filter((m) => m !== null && m !== undefined);
  const place = kind.whereName(where);
  const now = kind.mark(view);
  if (!marks.length) {
    return now === null ? `No finished game on ${place} in this browser sets a best yet.`
      : `Your first finished game on ${place} in this browser: ${kind.markText(now)} is the best to beat.`;
  }
  const best = marks.reduce((a, b) => (kind.better(b, a) ? b : a));
  const from = ` (from ${plural(marks.length, "earlier game")} on ${place} in this browser)`;
  if (now !== null && kind.better(now, best)) return `A new personal best! Your best before was ${kind.markText(best)}${from}.`;
  if (now === best) return `Equal to your personal best of ${kind.markText(best)}${from}.`;
  return `Your personal best is ${kind.markText(best)}${from}.`;
}

async function boardRank(view, kind) {
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
  return `Not in the top ${rows.length} of ${label} (number ${rows.length} has ${kind.boardText(rows.at(-1))}).`;
}

function soloPanel(view, kind) {
  const best = h("p", { id: "results-best" }, "Your personal best: looking…");
  const rank = h("p", { id: "results-rank" }, "Leaderboard: looking…");
  const fill = (node, promise) => promise.then((text) => { node.textContent = text; })
    .catch((error) => { node.textContent = `Not available now: ${errorText(error)}`; });
  fill(best, personalBest(view, kind));
  fill(rank, boardRank(view, kind));
  return h("section", { class: "results-solo" }, h("h3", {}, "How it compares"), best, rank);
}

// -- the buttons -----------------------------------------------------------------------------
// A rematch opens for this browser's seat; the seats it made for other people stay in
// this browser (My games), and their invitations are shown to pass on.
async function rematch(view, live, note) {
  note.textContent = "Starting the rematch…";
  const created = await api(`/api/games/${encodeURIComponent(view.id)}/rematch`, { method: "POST", token: live.token });
  const mine = created.seats.find((s) => s.seat === view.you);
  const others = created.seats.filter((s) => s.token && s.seat !== view.you);
  for (const s of [...others, mine]) seats.add({ id: created.id, token: s.token, game: view.game, seat: s.seat, name: s.name });
  if (!others.length) {
    location.assign(mine.invite);
    return;
  }
  note.replaceChildren("The rematch is ready. Send each player their link:",
    h("ul", { class: "invites" }, ...others.map((s) => h("li", {}, `${s.name}: `,
      h("a", { href: s.invite, "data-seat": String(s.seat) }, new URL(s.invite, location.href).href)))),
    h("a", { class: "button primary", href: mine.invite, id: "rematch-open" }, "Play my seat"));
}

function buttons(view, live, close) {
  const note = h("div", { class: "message", id: "results-note", role: "status" });
  const row = h("div", { class: "row results-buttons" });
  if (view.you !== null && view.you !== undefined && !view.daily) {
    const again = h("button", { type: "button", class: "primary", id: "rematch" }, "Rematch");
    again.title = "The same game, set-up and players again, on new dice";
    again.addEventListener("click", () => {
      again.disabled = true;
      rematch(view, live, note).catch((error) => { again.disabled = false; note.className = "message error"; note.textContent = errorText(error); });
    });
    row.append(again);
  }
  row.append(view.reveal ? h("a", { class: "button", href: `/replay/${encodeURIComponent(view.id)}`, id: "replay" }, "Replay")
    : h("span", { class: "muted" }, "The replay opens when the day is over."),
  h("a", { class: "button", href: "/", id: "new-game" }, "New game"),
  h("button", { type: "button", id: "results-close", onclick: close }, "See the sheet"));
  if (view.daily) note.textContent = "A daily challenge is one game a day, with no rematch: come back tomorrow for the next one.";
  return [row, note];
}

// -- the screen ------------------------------------------------------------------------------
// Show the results of a finished view over the page (once; a later call replaces it).
export function showResults(view, live) {
  loadStylesheet("/static/css/results.css");
  const kind = RESULTS[view.game];
  if (!kind || !view.result) return null;
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
  card.append(title, banner(view, kind), resultsTable(view, kind), achievementsPanel(view, kind) || "",
    view.seats.length === 1 && view.you === 0 ? soloPanel(view, kind) : "", ...buttons(view, live, close));
  document.body.append(screen, reopen);
  title.focus();
  return screen;
}
