// The game page: /play/{id}#token=SEAT_TOKEN for a seat, /play/{id} to watch.
// It connects, then hands the page to the game's own module (tomb.js or treasure.js).
import { $, LiveGame, TITLES, content, errorText, gameIdFromPath, h, seats } from "./api.js";

const app = $("app");
const statusLine = $("status");
const gameId = gameIdFromPath();
const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
const token = fromHash || seats.tokenFor(gameId);
const live = new LiveGame(gameId, token);
window.mummyLive = live; // for tests and the curious: the live game of this page

const STATUS = { open: "connected", connecting: "connecting…", closed: "reconnecting…", disconnected: "disconnected" };
live.addEventListener("status", (e) => {
  statusLine.textContent = STATUS[e.detail] || e.detail;
  statusLine.dataset.state = e.detail;
});

// Fetch both games' content and modules while connecting: the first drawing waits on
// whichever the game turns out to be, not on a second round trip after the first view.
const early = {
  tomb: [content("tomb"), import("./tomb.js")],
  treasure: [content("treasure"), import("./treasure.js")],
};
for (const [c, m] of Object.values(early)) { c.catch(() => {}); m.catch(() => {}); }

try {
  const view = await live.connect();
  if (token && view.you !== null && view.you !== undefined) {
    // Kept only once the server has taken it: a wrong link must not stick to this game.
    seats.add({ id: gameId, token, game: view.game, seat: view.you, name: view.seats[view.you].name });
  }
  // The token is the seat's secret: keep it in this browser, not in the address bar.
  if (fromHash) history.replaceState(null, "", location.pathname);
  $("title").textContent = `${TITLES[view.game] || view.game}${view.you === null ? " — watching" : ""}`;
  const [gameContent, module] = await Promise.all(early[view.game]);
  app.replaceChildren();
  module.mount(app, live, gameContent);
} catch (error) {
  live.close(); // no retrying behind the error page
  app.replaceChildren(h("div", { class: "panel error-page" },
    h("h2", {}, "This game cannot be shown"), h("p", { class: "message error" }, errorText(error)),
    h("p", {}, h("a", { href: "/" }, "Back to the start page"))));
}
