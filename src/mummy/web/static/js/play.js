// The game page: /play/{id}#token=SEAT_TOKEN for a seat, /play/{id} to watch. Its shell is
// the same for every game: it connects, keeps the status line, keeps the seat's token in
// this browser, shows a game that cannot be shown as an error page, and then hands the
// page to the game's own module (games.js), the only game code this page downloads.
// Around the game the shell keeps what every game shares: the turn alert in the tab's
// title and the sounds (alerts.js), the daily challenge's label, and the results screen
// once the game is over (results.js, loaded only then).
import { followAlerts, soundToggle, Sounds } from "./alerts.js";
import { LiveGame, content, errorText, seats } from "./api.js";
import { $, gameIdFromPath, h, loadStylesheet } from "./dom.js";
import { kinds, loadModule, titleOf } from "./games.js";

const STATUS = { open: "connected", connecting: "connecting…", closed: "reconnecting…", disconnected: "disconnected" };

// The game's content and module, asked for once (both are kept: a second ask is free).
function loadGame(game) {
  const both = [content(game), loadModule(game)];
  for (const p of both) p.catch(() => {}); // an early load's failure is told by the later ask
  return both;
}

function showError(app, error) {
  app.replaceChildren(h("div", { class: "panel error-page" },
    h("h2", {}, "This game cannot be shown"), h("p", { class: "message error" }, errorText(error)),
    h("p", {}, h("a", { href: "/" }, "Back to the start page"))));
}

// The results screen when the game is over: at once for a game opened finished, after a
// moment for a game that ends here (the last move is seen landing first).
function followEnd(live) {
  let shown = false;
  const check = (view, wait) => {
    if (!view.over || shown) return;
    shown = true;
    setTimeout(() => import("./results.js").then((r) => r.showResults(live.view, live)), wait);
  };
  check(live.view, 0);
  live.addEventListener("view", (e) => check(e.detail, 900));
}

// The paper sheets of this game (/print): a Tomb game's map filled in. The seed is not
// (a page never learns a secret seed); a group reading the dice from the companion
// writes its seed on the sheet.
function printHref(view) {
  const q = new URLSearchParams({ game: view.game });
  const sheets = view.state && view.state.sheets;
  if (view.game === "tomb" && sheets && sheets.length) q.set("map", sheets[view.you ?? 0].map);
  return `/print?${q}`;
}

// The header's additions: the sound toggle, a daily challenge's day, and the Print link.
function headerFor(view, toggle) {
  $("status").before(toggle);
  if (view.daily) $("title").after(h("span", { class: "daily-badge", id: "daily" }, `Daily challenge ${view.daily}`));
  $("rules-link").before(h("a", { id: "print-link", href: printHref(view), target: "_blank", rel: "noopener",
    title: "This game's sheets to print, in a new tab" }, "Print"));
}

async function main() {
  const app = $("app");
  const statusLine = $("status");
  const gameId = gameIdFromPath();
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
  const token = fromHash || seats.tokenFor(gameId);
  const live = new LiveGame(gameId, token);
  window.mummyLive = live; // for tests and the curious: the live game of this page
  live.addEventListener("status", (e) => {
    statusLine.textContent = STATUS[e.detail] || e.detail;
    statusLine.dataset.state = e.detail;
  });
  const connecting = live.connect(); // first: the server answers while the rest loads
  // A known game's module and content load while connecting, not after the first view:
  // the server names the game in the page when it holds it in memory (and has put its
  // files in the page's head already), else this browser may hold a seat in it.
  const named = document.querySelector("meta[name=mummy-game]");
  const known = named ? named.content : (seats.all().find((s) => s.id === gameId) || {}).game;
  if (known) loadGame(known);
  loadStylesheet("/static/css/results.css"); // the header's toggle, and the results screen
  const sounds = new Sounds();
  const toggle = soundToggle(sounds);
  try {
    const view = await connecting;
    if (token && view.you !== null && view.you !== undefined) {
      // Kept only once the server has taken it: a wrong link must not stick to this game.
      seats.add({ id: gameId, token, game: view.game, seat: view.you, name: view.seats[view.you].name });
    }
    // The token is the seat's secret: keep it in this browser, not in the address bar.
    if (fromHash) history.replaceState(null, "", location.pathname);
    await kinds().catch(() => null); // the game's title (its name stands in if the server did not say)
    $("title").textContent = `${titleOf(view.game)}${view.you === null ? " — watching" : ""}`;
    headerFor(view, toggle);
    followAlerts(live, titleOf(view.game), sounds, toggle);
    const [gameContent, module] = await Promise.all(loadGame(view.game));
    app.replaceChildren();
    module.mount(app, live, gameContent);
    followEnd(live);
  } catch (error) {
    live.close(); // no retrying behind the error page
    showError(app, error);
  }
}

main();
