// The start page (/): a new game, joining by link, this browser's games, the daily
// challenge and the best scores. Everything goes through the HTTP API (docs/server.md).
import { api, content, errorText, invites, seats } from "./api.js";
import { $, h } from "./dom.js";
import { kinds, titleOf } from "./games.js";
import { bulb, parLine, signed } from "./par.js";

const BOT_NAMES = ["Sphinx", "Anubis", "Horus", "Bastet", "Thoth", "Sobek", "Hathor", "Ptah"];
// The games this server plays, by name, as it describes them (GET /api/games/kinds): each
// one's seat limits, bots and options. The form is built from this; nothing here repeats it.
let KINDS = {};
const NAME_KEY = "mummy.name";

const app = $("app");
const form = $("new-game-form");
const gameKind = $("game-kind");
const seatList = $("seats");
const addSeat = $("add-seat");
const seatLimit = $("seat-limit");
const createButton = $("create");
const createMessage = $("create-message");

// -- small helpers ---------------------------------------------------------------------------
function say(element, text, kind = "error") {
  element.textContent = text || "";
  element.className = text ? `message ${kind}` : "message";
}

function title(word) { return word ? word[0].toUpperCase() + word.slice(1) : ""; }

function rememberedName() {
  try { return localStorage.getItem(NAME_KEY) || ""; } catch { return ""; }
}
function rememberName(name) {
  try { if (name) localStorage.setItem(NAME_KEY, name); } catch { /* private mode: no memory */ }
}

// -- new game: the games and their options ---------------------------------------------------
function limitOf(game) { return KINDS[game] ? KINDS[game].seats.max : 1; }
function optionsOf(game, type) { return KINDS[game] ? KINDS[game].options.filter((o) => o.type === type) : []; }
// Every game's options that are one choice per seat (Treasure's sites), with their game.
function seatChoices() { return Object.values(KINDS).flatMap((g) => optionsOf(g.name, "seat-choice").map((o) => [g.name, o])); }

// One option of a game as a form field: a select (a choice, or a seat), or a checkbox.
function optionField(game, option) {
  const id = `${game}-${option.key}`;
  const help = h("p", { id: `${id}-help`, class: "help muted" }, option.help);
  if (option.type === "flag") {
    const box = h("input", { id, name: option.key, type: "checkbox", "aria-describedby": help.id });
    box.checked = Boolean(option.default);
    return [h("div", { class: "field checkbox" }, box, h("label", { for: id }, option.label)), help];
  }
  const select = h("select", { id, name: option.key, "aria-describedby": help.id, "data-type": option.type },
    option.choices.map((c) => h("option", { value: c.value }, c.label)));
  if (option.type === "choice" && option.default !== null) select.value = String(option.default);
  return [h("div", { class: "field" }, h("label", { for: id }, option.label), select), help];
}

function optionsFieldset(game) {
  const fields = game.options.filter((o) => o.type !== "seat-choice").flatMap((o) => optionField(game.name, o));
  const perSeat = optionsOf(game.name, "seat-choice").map((o) => `Each seat picks its ${o.label.toLowerCase()} below.`);
  return h("fieldset", { id: `${game.name}-options`, class: "options", "data-game": game.name, hidden: true },
    h("legend", {}, game.title), fields,
    h("p", { class: "help muted" }, [game.summary, ...perSeat].join(" ")));
}

// The form from the server's description of its games.
function buildKinds(list) {
  KINDS = Object.fromEntries(list.map((g) => [g.name, g]));
  const chosen = gameKind.value;
  gameKind.replaceChildren(...list.map((g) => h("option", { value: g.name }, g.title)));
  if (KINDS[chosen]) gameKind.value = chosen;
  $("game-options").replaceChildren(...list.map(optionsFieldset));
}

// -- new game: seats -------------------------------------------------------------------------
let rowCounter = 0;

function seatRows() { return Array.from(seatList.querySelectorAll("li.seat")); }

// A seat's choice of a person or one of the game's bots (those this server can seat), each
// bot with its strength in words; a chosen bot the other game lacks falls back to a person.
function fillBots(select, game) {
  const chosen = select.value;
  const bots = KINDS[game] ? KINDS[game].bots.filter((b) => b.available) : [];
  select.replaceChildren(h("option", { value: "" }, "Person"),
    ...bots.map((b) => h("option", { value: b.name, title: b.strength }, `Bot: ${b.name}`)));
  select.value = bots.some((b) => b.name === chosen) ? chosen : "";
  sayStrength(select);
}

// Under a seat that a bot takes, how well that bot plays (the server's words).
function sayStrength(select) {
  const row = select.closest("li.seat");
  const line = row && row.querySelector(".seat-strength");
  if (!line) return;
  const bot = KINDS[gameKind.value]?.bots.find((b) => b.name === select.value);
  line.textContent = bot ? `${bot.name}: ${bot.strength}` : "";
  line.hidden = !bot;
}

function makeSeatRow(bot = "", name = "") {
  const n = ++rowCounter;
  const kind = h("select", { id: `seat-kind-${n}`, class: "seat-kind" });
  fillBots(kind, gameKind.value);
  kind.value = bot;
  const nameInput = h("input", {
    id: `seat-name-${n}`, class: "seat-name", type: "text", maxlength: "40", autocomplete: "off", spellcheck: "false",
  });
  nameInput.value = name;
  const index = seatRows().length;
  const perSeat = seatChoices().map(([game, option]) => {
    const select = h("select", { id: `seat-${option.key}-${n}`, class: `seat-${option.key}`, "data-key": option.key },
      option.choices.map((c) => h("option", { value: c.value }, c.label)));
    select.value = option.choices[index % option.choices.length].value;
    return h("div", { class: "seat-field seat-choice", "data-game": game },
      h("label", { for: select.id }, option.label), select);
  });
  const kindLabel = h("label", { for: kind.id, class: "seat-label" }, "Seat");
  const remove = h("button", { type: "button", class: "seat-remove" }, "Remove");
  const row = h("li", { class: "seat", "data-testid": "seat" },
    h("div", { class: "seat-field" }, kindLabel, kind),
    h("div", { class: "seat-field grow" }, h("label", { for: nameInput.id }, "Name"), nameInput),
    perSeat,
    h("div", { class: "seat-field seat-actions" }, remove),
    h("p", { class: "seat-strength help muted", hidden: true }));
  kind.addEventListener("change", () => {
    // A bot gets a name to go by (editable); a person's typed name is never replaced.
    if (kind.value && (!nameInput.value.trim() || nameInput.dataset.auto === "1")) {
      const taken = new Set(seatRows().map((r) => r.querySelector(".seat-name").value.trim()));
      nameInput.value = BOT_NAMES.find((b) => !taken.has(b)) || "";
      nameInput.dataset.auto = "1";
    } else if (!kind.value && nameInput.dataset.auto === "1") {
      nameInput.value = "";
      delete nameInput.dataset.auto;
    }
    sayStrength(kind);
    refreshSeats();
  });
  nameInput.addEventListener("input", () => { delete nameInput.dataset.auto; refreshSeats(); });
  remove.addEventListener("click", () => {
    const rows = seatRows();
    const index = rows.indexOf(row);
    row.remove();
    refreshSeats();
    const left = seatRows();
    const next = left[Math.min(index, left.length - 1)];
    (next ? next.querySelector(".seat-remove:not(:disabled)") || next.querySelector(".seat-kind") : addSeat).focus();
  });
  return row;
}

function seatName(row, index) {
  return row.querySelector(".seat-name").value.trim() || `player ${index + 1}`;
}

function refreshSeats() {
  const game = gameKind.value;
  const rows = seatRows();
  const limit = limitOf(game);
  rows.forEach((row, i) => {
    const kindLabel = row.querySelector(".seat-label");
    kindLabel.textContent = `Seat ${i + 1}`;
    const nameInput = row.querySelector(".seat-name");
    nameInput.placeholder = `player ${i + 1}`;
    nameInput.setAttribute("aria-label", `Seat ${i + 1}: name`);
    row.querySelector(".seat-kind").setAttribute("aria-label", `Seat ${i + 1}: a person or a bot`);
    for (const field of row.querySelectorAll(".seat-choice")) {
      field.hidden = field.dataset.game !== game;
      const label = field.querySelector("label").textContent.toLowerCase();
      field.querySelector("select").setAttribute("aria-label", `Seat ${i + 1}: ${label}`);
    }
    const remove = row.querySelector(".seat-remove");
    remove.disabled = rows.length <= 1;
    remove.setAttribute("aria-label", `Remove seat ${i + 1}`);
    row.classList.toggle("extra", i >= limit);
  });
  addSeat.disabled = rows.length >= limit;
  seatLimit.textContent = rows.length > limit
    ? `${titleOf(game)} seats at most ${limit} players: remove ${rows.length - limit}.`
    : `${rows.length} of at most ${limit} seats.`;
  seatLimit.classList.toggle("warning", rows.length > limit);
  // A seat option (Treasure's who starts): one choice a seat, kept when it still exists.
  for (const select of document.querySelectorAll(`#${game}-options select[data-type="seat"]`)) {
    const chosen = select.value;
    const shown = rows.slice(0, limit);
    select.replaceChildren(...shown.map((row, i) => h("option", { value: String(i) }, `Seat ${i + 1}: ${seatName(row, i)}`)));
    select.value = chosen && Number(chosen) < shown.length ? chosen : "0";
  }
}

function refreshKind() {
  const game = gameKind.value;
  for (const fieldset of $("game-options").querySelectorAll("fieldset")) fieldset.hidden = fieldset.dataset.game !== game;
  for (const select of seatList.querySelectorAll(".seat-kind")) fillBots(select, game);
  refreshSeats();
}

// The body for POST /api/games, or a text saying what to fix.
function collect() {
  const game = gameKind.value;
  const rows = seatRows();
  const limit = limitOf(game);
  if (rows.length > limit) return `${titleOf(game)} seats at most ${limit} players: remove ${rows.length - limit} seat(s).`;
  const seatsBody = rows.map((row) => ({
    name: row.querySelector(".seat-name").value.trim() || null,
    bot: row.querySelector(".seat-kind").value || null,
  }));
  if (!seatsBody.some((s) => !s.bot)) return "At least one seat must be a person: make a seat a Person.";
  const body = { game, seats: seatsBody };
  for (const option of KINDS[game].options) {
    const field = $(`${game}-${option.key}`);
    if (option.type === "seat-choice") body[option.key] = rows.map((row) => row.querySelector(`.seat-${option.key}`).value);
    else if (option.type === "flag") body[option.key] = field.checked;
    else if (option.type === "seat") body[option.key] = Number(field.value) || 0;
    else body[option.key] = field.value;
  }
  const seedText = $("seed").value.trim();
  if (seedText) {
    const seed = Number(seedText);
    if (!/^\d+$/.test(seedText) || !Number.isSafeInteger(seed)) {
      return `The seed is a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, or empty for a secret one.`;
    }
    body.seed = seed;
  }
  return body;
}

async function createGame(event) {
  event.preventDefault();
  const body = collect();
  if (typeof body === "string") {
    say(createMessage, body);
    return;
  }
  const firstPerson = body.seats.find((s) => !s.bot);
  rememberName(firstPerson.name);
  createButton.disabled = true;
  say(createMessage, "Creating the game…", "info");
  try {
    const created = await api("/api/games", { method: "POST", body });
    say(createMessage, "");
    showCreated(created, body.game);
  } catch (error) {
    say(createMessage, errorText(error));
  } finally {
    createButton.disabled = Object.keys(KINDS).length === 0;
  }
}

// -- new game: invitations -------------------------------------------------------------------
// The server gives every person's seat token to this browser alone: the first seat is
// this browser's own, and the others are kept too, as seats made for others (api.js
// `invites`), so that their links can be handed out again, or a seat taken back, from My
// games once this page is left.
function showCreated(created, game) {
  const people = created.seats.filter((s) => s.token);
  const me = people[0];
  seats.add({ id: created.id, token: me.token, game, seat: me.seat, name: me.name });
  invites.add(people.slice(1).map((seat) => ({ id: created.id, token: seat.token, game, seat: seat.seat,
    name: seat.name, invite: seat.invite })));
  if (people.length === 1) {
    location.assign(me.invite);
    return;
  }
  const list = $("invite-list");
  list.replaceChildren(...people.map((seat, i) => inviteItem(seat, seat.invite,
    i === 0 ? h("span", { class: "badge" }, "you, in this browser") : null)));
  const play = $("play-link");
  play.href = me.invite;
  play.textContent = `Play as ${me.name}`;
  const section = $("invites");
  section.hidden = false;
  section.focus();
  section.scrollIntoView({ block: "nearest" });
  loadMyGames();
}

// One seat's invitation: who, its link, and a button that copies it.
function inviteItem(seat, path, badge) {
  const url = location.origin + path;
  const link = h("a", { class: "invite-link", href: url, "data-seat": String(seat.seat) }, url);
  const status = h("span", { class: "copy-status muted", role: "status" });
  const copy = h("button", { type: "button", class: "copy", "aria-label": `Copy ${seat.name}'s link` }, "Copy link");
  copy.addEventListener("click", () => copyLink(url, link, status));
  return h("li", { class: "invite", "data-seat": String(seat.seat) },
    h("div", { class: "invite-who" }, h("strong", {}, seat.name), ` · seat ${seat.seat + 1}`, badge),
    h("div", { class: "invite-url" }, link),
    h("div", { class: "row" }, copy, status));
}

async function copyLink(url, link, status) {
  try {
    await navigator.clipboard.writeText(url);
    status.textContent = "Copied.";
  } catch {
    // No clipboard access here: select the link so that Ctrl+C (or a long press) copies it.
    const range = document.createRange();
    range.selectNodeContents(link);
    const selection = getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    status.textContent = "Selected: press Ctrl+C to copy.";
  }
  setTimeout(() => { status.textContent = ""; }, 4000);
}

// -- join by link ----------------------------------------------------------------------------
// Where an invitation link, a play/replay address or a bare game id leads; [url, null] or [null, why].
function joinTarget(text) {
  text = text.trim();
  if (!text) return [null, "Paste an invitation link or a game id first."];
  if (/^[A-Za-z0-9_-]{4,64}$/.test(text)) return [`/play/${text}`, null];
  let url;
  try { url = new URL(text, location.origin); } catch { url = null; }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    return [null, "That is neither an invitation link nor a game id."];
  }
  if (!/^\/(play|replay)\/[^/]+\/?$/.test(url.pathname)) {
    return [null, "That is not an invitation link: it looks like …/play/GAME#token=…"];
  }
  return [url.origin === location.origin ? url.pathname + url.search + url.hash : url.href, null];
}

function join(event) {
  event.preventDefault();
  const [target, why] = joinTarget($("join-link").value);
  if (!target) {
    say($("join-message"), why);
    return;
  }
  say($("join-message"), "");
  location.assign(target);
}

// -- my games --------------------------------------------------------------------------------
// The seats held in this browser, as api.js stores them; forgetting one is this page's alone.
const SEATS_KEY = "mummy.seats";
function heldSeats() {
  return seats.all().filter((s) => s && typeof s.token === "string" && s.token.length >= 1 && s.token.length <= 64);
}
function forgetSeat(token) {
  try {
    localStorage.setItem(SEATS_KEY, JSON.stringify(seats.all().filter((s) => s && s.token !== token)));
  } catch { /* private mode: nothing was kept */ }
}

// Today's daily game of each kind held in this browser (from My games), and the server's day.
const today = { day: new Date().toISOString().slice(0, 10), games: {} };

// The daily buttons say what a click does: start today's game, or go back to it.
function labelDaily() {
  for (const game of ["tomb", "treasure"]) {
    const mine = today.games[game];
    const name = game === "tomb" ? "Tomb" : "Treasure";
    const button = $(`daily-${game}-play`);
    button.textContent = !mine ? `Play today's ${name} challenge`
      : mine.over ? `See your ${name} result for today` : `Resume today's ${name} challenge`;
    button.dataset.resumes = mine ? mine.id : "";
  }
}

function gameItem(g, held) {
  const mine = held.filter((s) => s.id === g.id);
  const entry = mine.find((s) => s.seat === g.seat) || (mine.length === 1 ? mine[0] : null);
  const resume = `/play/${encodeURIComponent(g.id)}${entry ? `#token=${entry.token}` : ""}`;
  // A past day's challenge left unfinished takes no more moves (the server says 409 over).
  const ended = !g.over && g.daily && g.daily < today.day;
  const links = g.over
    ? [h("a", { class: "button replay-link", href: `/replay/${encodeURIComponent(g.id)}` }, "Replay"),
      h("a", { class: "button", href: resume }, "Final sheet")]
    : [h("a", { class: ended ? "button" : "button primary resume-link", href: resume }, ended ? "Sheet" : "Resume")];
  const what = `${g.daily ? "daily " : ""}${titleOf(g.game)} game of ${g.name}`;
  if (entry) links.push(removeButton(g, entry, what));
  // The seats made here for the others, under the seat this browser plays (once a game).
  const made = g.seat === Math.min(...mine.map((s) => s.seat)) ? invites.of(g.id) : [];
  return h("li", { class: "game-item", "data-game-id": g.id, "data-seat": String(g.seat), "data-over": g.over ? "yes" : "no",
    "data-daily": g.daily || "" },
  h("div", { class: "game-what" },
    g.daily ? h("span", { class: "badge daily" }, `☀ Daily challenge ${g.daily}`) : null,
    h("strong", {}, titleOf(g.game)), " · ", h("span", { class: "seat-name-text" }, g.name),
    h("span", { class: "muted" }, ` (seat ${g.seat + 1})`)),
  h("div", { class: "game-meta row" },
    h("span", { class: g.over ? "badge done" : ended ? "badge" : "badge turn" },
      g.over ? "✔ over" : ended ? "■ its day is over" : "▶ in progress"),
    h("span", { class: "muted" }, g.version ? `move ${g.version}` : "no move yet"),
    ...coachingMarks(g),
    h("span", { class: "muted game-id" }, g.id)),
  h("div", { class: "row game-links" }, links),
  made.length ? madeForOthers(g, made) : null);
}

// The seats this browser made for other people in a game: each one's link, to hand out
// again, or to open here and take the seat back (it then becomes this browser's own).
function madeForOthers(g, made) {
  const count = made.length === 1 ? "1 seat" : `${made.length} seats`;
  return h("details", { class: "invites-held" },
    h("summary", {}, `Made for others: ${count} (${made.map((s) => s.name).join(", ")})`),
    h("ul", { class: "invite-list" }, made.map((seat) => inviteItem(seat,
      seat.invite || `/play/${encodeURIComponent(g.id)}#token=${seat.token}`, null))));
}

// A finished solo game's par against its result ("par 161: −18") and a practice game's
// hints, as the server keeps them with the game's result (js/par.js).
function coachingMarks(g) {
  const out = [];
  const par = g.over && g.result ? g.result.par : null;
  if (par && par.par !== null && par.par !== undefined) {
    out.push(h("span", { class: "par-mark", "data-par": String(par.par), "data-result": String(par.result), title: parLine(par) },
      `par ${par.par}: ${signed(par.result)}`));
  }
  const hints = (g.result && g.result.hints) || 0;
  if (hints) out.push(h("span", { class: "badge hints", title: "Hints were taken: a practice game, not on the best scores" },
    bulb(), ` ${hints} ${hints === 1 ? "hint" : "hints"}`));
  return out;
}

// Remove: this browser forgets its seat (the game stays on the server, and on the boards).
// A game with moves asks once more, as its seat cannot be found again without its link.
function removeButton(g, entry, what) {
  const button = h("button", { type: "button", class: "game-remove", "aria-label": `Remove the ${what} from My games` }, "Remove");
  button.addEventListener("click", () => {
    if (g.version && !g.over && button.dataset.confirm !== "yes") {
      button.dataset.confirm = "yes";
      button.textContent = "Click again to remove";
      button.title = "This browser forgets your seat: without its link you cannot come back to this game.";
      button.setAttribute("aria-label", `Click again to remove the ${what}: this browser forgets its seat`);
      return;
    }
    forgetSeat(entry.token);
    // The game leaves this browser: the seats it made for others in it too, unless it still plays one.
    if (!heldSeats().some((s) => s.id === g.id)) invites.drop((s) => s.id === g.id);
    const item = button.closest("li.game-item");
    const next = item.nextElementSibling || item.previousElementSibling;
    item.remove();
    if (g.daily === today.day) { delete today.games[g.game]; labelDaily(); }
    const target = next ? next.querySelector("a, button") : $("my-games-title");
    if (!next) target.tabIndex = -1; // a heading takes the focus only so
    target.focus();
    if (!$("my-games-list").querySelector("li.game-item")) loadMyGames();
  });
  return button;
}

async function loadMyGames() {
  const box = $("my-games-list");
  const section = $("my-games");
  const held = heldSeats();
  section.setAttribute("aria-busy", "true");
  try {
    if (!held.length) {
      box.replaceChildren(h("p", { class: "muted empty" }, "No games in this browser yet: the games you create or join appear here."));
      return;
    }
    const { games } = await api("/api/my-games", { method: "POST", body: { tokens: held.slice(0, 100).map((s) => s.token) } });
    say($("my-games-message"), "");
    today.games = {};
    for (const g of games) if (g.daily === today.day && !today.games[g.game]) today.games[g.game] = g;
    labelDaily();
    if (!games.length) {
      box.replaceChildren(h("p", { class: "muted empty" }, "None of the games held in this browser is known to this server."));
      return;
    }
    box.replaceChildren(h("ul", { class: "game-list" }, games.map((g) => gameItem(g, held))));
  } catch (error) {
    say($("my-games-message"), errorText(error));
    if (box.querySelector(".loading")) box.replaceChildren();
  } finally {
    section.setAttribute("aria-busy", "false");
  }
}

// -- leaderboards ----------------------------------------------------------------------------
function boardTable(rows, { caption, valueHeading, value, replay }) {
  if (!rows.length) return h("p", { class: "muted empty" }, `${caption}: no finished games yet.`);
  return h("table", { class: "lines leaderboard" },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", class: "num" }, "#"), h("th", { scope: "col" }, "Player"),
      h("th", { scope: "col", class: "num" }, valueHeading),
      replay ? h("th", { scope: "col" }, h("span", { class: "sr-only" }, "Replay")) : null)),
    h("tbody", {}, rows.map((r, i) => h("tr", { "data-game-id": r.id },
      h("td", { class: "num" }, String(i + 1)),
      h("td", { class: "who" }, r.name || "player 1", h("span", { class: "muted when" }, ` ${String(r.finished || "").slice(0, 10)}`)),
      h("td", { class: "num" }, String(value(r))),
      replay ? h("td", {}, h("a", { href: `/replay/${encodeURIComponent(r.id)}`, "aria-label": `Replay ${r.name || "player 1"}'s game` }, "Replay")) : null))));
}

const VALUES = {
  tomb: { valueHeading: "Score", value: (r) => r.score },
  treasure: { valueHeading: "Turns", value: (r) => r.turns },
};

// A day's board ranks by score, or (the toggle above it) by the result against par: the
// strongest bot's result on the same dice, the same for everybody that day (js/par.js).
const dailyRank = { tomb: "score", treasure: "score" };

function rankToggle(game) {
  const box = $(`daily-${game}-board`);
  if (document.getElementById(`daily-${game}-rank`)) return;
  const choice = (value, label) => h("button", { type: "button", class: "rank-choice", "data-rank": value,
    "aria-pressed": dailyRank[game] === value ? "true" : "false",
    onclick: () => { dailyRank[game] = value; syncToggle(game); loadDaily(game); } }, label);
  box.before(h("div", { class: "row rank-toggle", id: `daily-${game}-rank`, role: "group", "aria-label": "Rank the day's board" },
    h("span", { class: "muted" }, "Rank by:"), choice("score", "Score"), choice("par", "Against par")));
}

function syncToggle(game) {
  for (const b of document.querySelectorAll(`#daily-${game}-rank .rank-choice`)) {
    b.setAttribute("aria-pressed", b.dataset.rank === dailyRank[game] ? "true" : "false");
  }
}

function parBoard(rows, { caption, valueHeading, value }) {
  if (!rows.length) return h("p", { class: "muted empty" }, `${caption}: no finished games yet.`);
  return h("table", { class: "lines leaderboard by-par" },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", class: "num" }, "#"), h("th", { scope: "col" }, "Player"),
      h("th", { scope: "col", class: "num" }, valueHeading), h("th", { scope: "col", class: "num" }, "Par"),
      h("th", { scope: "col", class: "num", title: "The result against par: positive is better than the strongest bot" }, "± par"))),
    h("tbody", {}, rows.map((r, i) => h("tr", { "data-game-id": r.id, "data-result": String(r.result) },
      h("td", { class: "num" }, String(i + 1)),
      h("td", { class: "who" }, r.name || "player 1"),
      h("td", { class: "num" }, String(value(r))),
      h("td", { class: "num" }, r.par === null || r.par === undefined ? "…" : String(r.par)),
      h("td", { class: "num result" }, signed(r.result))))));
}

async function loadDaily(game) {
  const box = $(`daily-${game}-board`);
  rankToggle(game);
  const byPar = dailyRank[game] === "par";
  try {
    const data = await api(byPar ? `/api/daily/${game}/par` : `/api/daily/${game}`);
    if (byPar !== (dailyRank[game] === "par")) return; // the toggle moved on meanwhile
    const caption = byPar ? `Today, ${data.day}, against par` : `Today, ${data.day}`;
    box.replaceChildren((byPar ? parBoard : boardTable)(data.leaderboard, { caption, ...VALUES[game] }));
    box.dataset.day = data.day;
    box.dataset.rank = dailyRank[game];
    today.day = data.day; // the server's day (UTC), which names its challenge
  } catch (error) {
    box.replaceChildren(h("p", { class: "message error" }, errorText(error)));
  }
}

async function startDaily(game) {
  const button = $(`daily-${game}-play`);
  const name = $("daily-name").value.trim() || null;
  rememberName(name);
  button.disabled = true;
  const resuming = Boolean(button.dataset.resumes);
  say($("daily-message"), resuming ? "Back to today's challenge…" : "Starting today's challenge…", "info");
  try {
    // With this browser's seats: the server goes back to today's game held by one of them
    // (another tab may have started it) rather than start another.
    const tokens = heldSeats().slice(0, 100).map((s) => s.token);
    const created = await api(`/api/daily/${game}`, { method: "POST", body: { name, tokens } });
    const seat = created.seats[0];
    seats.add({ id: created.id, token: seat.token, game, seat: seat.seat, name: seat.name, daily: today.day });
    location.assign(seat.invite);
  } catch (error) {
    say($("daily-message"), errorText(error));
    button.disabled = false;
  }
}

const bestRequest = { tomb: 0, treasure: 0 };
async function loadBest(game) {
  const select = $(game === "tomb" ? "best-tomb-map" : "best-treasure-site");
  const box = $(`best-${game}-board`);
  const where = select.value;
  const label = select.selectedOptions[0] ? select.selectedOptions[0].textContent : where;
  const ticket = ++bestRequest[game];
  box.setAttribute("aria-busy", "true");
  try {
    const data = await api(`/api/leaderboards/${game}?where=${encodeURIComponent(where)}`);
    if (ticket !== bestRequest[game]) return; // the choice changed meanwhile
    box.replaceChildren(boardTable(data.leaderboard, { caption: label, replay: true, ...VALUES[game] }));
    box.dataset.where = where;
  } catch (error) {
    if (ticket === bestRequest[game]) box.replaceChildren(h("p", { class: "message error" }, errorText(error)));
  } finally {
    if (ticket === bestRequest[game]) box.setAttribute("aria-busy", "false");
  }
}

// -- content: map titles and sites -----------------------------------------------------------
// Each game's content fills this page's choices of it (the form's maps, the boards' maps
// and sites); the page offers the usual ones until it has. Only the content of the form's
// game is fetched at once; another game's when the form switches to it or a choice of
// that game is about to be used (its select is pointed at or focused).
const FILLS = {
  tomb: (tomb) => {
    const maps = Object.entries(tomb.maps || {});
    if (!maps.length) return;
    const select = $("best-tomb-map");
    const chosen = select.value;
    select.replaceChildren(...maps.map(([key, m]) => h("option", { value: key }, m.title || key)));
    if (tomb.maps[chosen]) select.value = chosen;
  },
  treasure: (treasure) => {
    const sites = Object.keys(treasure.sites || {});
    if (!sites.length) return;
    const select = $("best-treasure-site");
    const chosen = select.value;
    select.replaceChildren(...sites.map((s) => h("option", { value: s }, title(s))));
    if (sites.includes(chosen)) select.value = chosen;
  },
};
const filled = {};
function fillFrom(game) {
  if (!filled[game] && FILLS[game]) {
    filled[game] = content(game).then(FILLS[game]).catch((error) => {
      say(createMessage, `${titleOf(game)}: its maps or sites could not be loaded (${errorText(error)}); the usual ones are offered.`);
    });
  }
  return filled[game] || Promise.resolve();
}

// -- start -----------------------------------------------------------------------------------
try {
  buildKinds(Object.values(await kinds()));
} catch (error) {
  say(createMessage, `The games could not be loaded (${errorText(error)}): reload the page to try again.`);
}
$("daily-name").closest(".field").after(h("p", { class: "help daily-rule" },
  "Your first finished game of the day is your entry on its board; daily games are not on the best scores."));
const remembered = rememberedName();
seatList.append(makeSeatRow("", remembered));
$("daily-name").value = remembered;
gameKind.addEventListener("change", () => { refreshKind(); fillFrom(gameKind.value); });
for (const select of document.querySelectorAll("select[data-content]")) {
  for (const event of ["pointerover", "focus"]) select.addEventListener(event, () => fillFrom(select.dataset.content));
}
addSeat.addEventListener("click", () => {
  if (seatRows().length >= limitOf(gameKind.value)) return;
  const row = makeSeatRow();
  seatList.append(row);
  refreshSeats();
  row.querySelector(".seat-kind").focus();
});
form.addEventListener("submit", createGame);
$("join-form").addEventListener("submit", join);
$("daily-tomb-play").addEventListener("click", () => startDaily("tomb"));
$("daily-treasure-play").addEventListener("click", () => startDaily("treasure"));
$("best-tomb-map").addEventListener("change", () => loadBest("tomb"));
$("best-treasure-site").addEventListener("change", () => loadBest("treasure"));
// Coming back (the browser's back button) may show a page from its cache: refresh the lists.
addEventListener("pageshow", (event) => { if (event.persisted) { loadMyGames(); loadDaily("tomb"); loadDaily("treasure"); } });
refreshKind();

// The form works at once with the usual choices (its game's content completes them), and
// everything else is asked for at the same time, not one after the other.
createButton.disabled = Object.keys(KINDS).length === 0;
await Promise.all([fillFrom(gameKind.value), loadMyGames(), loadDaily("tomb"), loadDaily("treasure"),
  loadBest("tomb"), loadBest("treasure")]);
app.dataset.ready = "yes";
