// The replay page: /replay/{id}[?step=N]. A finished game, step by step: each step is the
// game after its first N log entries (GET /api/games/{id}/replay?step=N), drawn by the
// game's own module (its renderState, js/games.js).
import { ApiError, api, content, errorText } from "./api.js";
import { $, gameIdFromPath, h } from "./dom.js";
import { kinds, loadModule, titleOf } from "./games.js";
import { mountReview } from "./review.js";

const PLAY_EVERY = 700; // ms between steps while playing
const FETCH_DELAY = 40; // ms: a burst of steps (a dragged slider, a held key) fetches only where it stops

const app = $("app");
const board = $("replay-board");
const controls = $("replay-controls");
const slider = $("replay-slider");
const counter = $("replay-step");
const playButton = $("replay-play");
const statusLine = $("status");
const messageLine = $("replay-message");

const gameId = gameIdFromPath();
const base = `/api/games/${encodeURIComponent(gameId)}`;

const replay = {
  view: null, // the game's view (GET /api/games/{id}): kind, seats, result
  names: [],
  steps: 0,
  current: 0, // the step asked for
  shown: -1, // the step on screen
  renderer: null, // {draw, data} once loaded, or null with rendererError
  module: null, // the game's module once loaded (its outcome and why read the result)
  rendererError: null,
  playing: false,
  state: null, // the state of the step on screen
  review: null, // the Review view's hook (js/review.js), once mounted
};
window.mummyReplay = replay; // for tests and the curious

const cache = new Map(); // step -> promise of the replay answer
let fetchTimer = null;
let playTimer = null;

function say(text, kind = "error") {
  messageLine.textContent = text || "";
  messageLine.className = text ? `message ${kind}` : "message";
  messageLine.hidden = !text;
}

function setStatus(text, state) {
  statusLine.textContent = text;
  if (state) statusLine.dataset.state = state;
  else delete statusLine.dataset.state;
}

function fetchStep(step) {
  if (!cache.has(step)) {
    const promise = api(`${base}/replay?step=${step}`);
    cache.set(step, promise);
    promise.catch(() => cache.delete(step)); // a failure is not kept: the next visit asks again
  }
  return cache.get(step);
}

function prefetch(step) {
  if (step >= 0 && step <= replay.steps && !cache.has(step)) fetchStep(step).catch(() => {});
}

// -- the controls ----------------------------------------------------------------------------
function clamp(step) { return Math.max(0, Math.min(replay.steps, Math.round(step) || 0)); }

function updateControls() {
  const { current, steps } = replay;
  counter.textContent = `step ${current} of ${steps}`;
  slider.max = String(steps);
  slider.value = String(current);
  slider.setAttribute("aria-valuetext", `step ${current} of ${steps}`);
  $("replay-first").disabled = current <= 0;
  $("replay-prev").disabled = current <= 0;
  $("replay-next").disabled = current >= steps;
  $("replay-last").disabled = current >= steps;
  playButton.textContent = replay.playing ? "❚❚ Pause" : "▶ Play";
  playButton.setAttribute("aria-pressed", replay.playing ? "true" : "false");
}

// Go to a step: the counter moves at once, the state follows when it has arrived.
function goto(step, { fromPlay = false } = {}) {
  if (!fromPlay) stop();
  replay.current = clamp(step);
  updateControls();
  const url = new URL(location.href);
  url.searchParams.set("step", String(replay.current));
  history.replaceState(null, "", url.pathname + url.search);
  clearTimeout(fetchTimer);
  if (replay.current === replay.shown) {
    board.classList.remove("stale");
    return;
  }
  board.classList.add("stale");
  if (cache.has(replay.current)) load(replay.current);
  else fetchTimer = setTimeout(() => load(replay.current), FETCH_DELAY);
}

async function load(step) {
  let answer;
  try {
    answer = await fetchStep(step);
  } catch (error) {
    if (step === replay.current) {
      say(`Step ${step} could not be loaded: ${errorText(error)}`);
      stop();
    }
    return;
  }
  if (step !== replay.current) return; // the user has moved on meanwhile
  say("");
  show(answer);
  prefetch(step + 1);
  if (replay.playing) schedulePlay();
}

function show(answer) {
  const { step, action } = answer;
  replay.shown = step;
  replay.steps = answer.steps;
  const seatText = $("replay-action-seat");
  const actionText = $("replay-action-text");
  if (action) {
    const name = replay.names[action.seat] ?? (action.seat < 0 ? "Everyone" : `Seat ${action.seat + 1}`);
    seatText.textContent = `${name}: `;
    actionText.textContent = action.action;
  } else {
    seatText.textContent = "The start of the game: no action yet.";
    actionText.textContent = "";
  }
  $("replay-action").dataset.seat = action ? String(action.seat) : "";
  replay.state = answer.state;
  draw(answer.state);
  if (replay.review) replay.review.drawn(step); // a reviewed mistake's move over the sheet
  $("replay-result").hidden = step !== replay.steps;
  board.classList.remove("stale");
  app.dataset.shown = String(step);
}

function draw(state) {
  if (!replay.renderer) {
    if (!board.querySelector(".render-error")) {
      board.replaceChildren(h("div", { class: "panel render-error", role: "note" },
        h("h2", {}, "The board cannot be drawn"),
        h("p", { class: "message error" }, replay.rendererError || "the game's drawing module is missing"),
        h("p", {}, "The steps and their actions are still listed above.")));
    }
    return;
  }
  try {
    board.replaceChildren();
    // The final result has its own panel on this page, the same for both games.
    replay.renderer.draw(board, state, replay.renderer.data, { names: replay.names, bots: replay.view.seats.map((s) => s.bot) });
  } catch (error) {
    board.replaceChildren(h("div", { class: "panel render-error", role: "note" },
      h("h2", {}, "This step cannot be drawn"), h("p", { class: "message error" }, errorText(error))));
  }
}

// -- playing ---------------------------------------------------------------------------------
function schedulePlay() {
  clearTimeout(playTimer);
  playTimer = setTimeout(() => {
    if (!replay.playing) return;
    if (replay.current >= replay.steps) stop();
    else goto(replay.current + 1, { fromPlay: true });
  }, PLAY_EVERY);
}

function start() {
  replay.playing = true;
  if (replay.current >= replay.steps) goto(0, { fromPlay: true });
  else schedulePlay();
  updateControls();
}

function stop() {
  if (!replay.playing) return;
  replay.playing = false;
  clearTimeout(playTimer);
  updateControls();
}

function togglePlay() {
  if (replay.playing) stop();
  else start();
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || controls.hidden) return;
  const target = event.target;
  const tag = target && target.tagName;
  if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && target !== slider)) return;
  const onSlider = target === slider; // the slider moves itself with the arrows, Home and End
  const onButton = tag === "BUTTON" || tag === "A";
  const moves = { ArrowLeft: () => replay.current - 1, ArrowRight: () => replay.current + 1, Home: () => 0, End: () => replay.steps };
  if (moves[event.key] && !onSlider) {
    event.preventDefault();
    goto(moves[event.key]());
  } else if (event.key === " " && !onButton) {
    event.preventDefault();
    togglePlay();
  }
}

// -- the result ------------------------------------------------------------------------------
function resultList(view, words) {
  const result = view.result;
  if (!result) return [h("p", {}, "The game is over.")];
  const names = replay.names;
  const kind = replay.module;
  const order = names.map((_, i) => i).sort((a, b) => (result.places[a] ?? 99) - (result.places[b] ?? 99));
  const items = order.map((i) => {
    const place = result.places[i];
    return h("li", { "data-seat": String(i) }, h("strong", {}, names[i]), ` — ${kind ? kind.outcome(result, i, words) : ""}`,
      place === 1 && names.length > 1 ? h("span", { class: "badge done" }, "★ winner") : null);
  });
  const lines = [h("ol", { class: "result-list" }, items)];
  const why = kind ? kind.why(result, names) : null;
  if (why) lines.push(h("p", { class: "muted" }, why));
  if (view.reveal) lines.push(h("p", { class: "muted" }, `Seed ${view.reveal.seed}, revealed now that the game is over.`));
  return lines;
}

// -- loading ---------------------------------------------------------------------------------
async function loadRenderer(game) {
  try {
    const [module, data] = await Promise.all([loadModule(game), content(game)]);
    replay.module = module;
    if (typeof module.renderState !== "function") return { error: `the ${titleOf(game)} module has no renderState()` };
    return { draw: module.renderState, data };
  } catch (error) {
    return { error: `the ${titleOf(game)} module could not be loaded (${errorText(error)})` };
  }
}

function fail(text, extra = null) {
  setStatus("unavailable", "closed");
  board.replaceChildren(h("div", { class: "panel error-page" },
    h("h2", {}, "This replay cannot be shown"), h("p", { class: "message error" }, text), extra,
    h("p", {}, h("a", { href: "/" }, "Back to the start page"))));
  app.dataset.ready = "error";
}

async function main() {
  const wanted = Number(new URLSearchParams(location.search).get("step"));
  let view;
  try {
    view = await api(base);
  } catch (error) {
    fail(errorText(error));
    return;
  }
  replay.view = view;
  replay.names = view.seats.map((s) => s.name);
  await kinds().catch(() => null); // the game's title (its name stands in if the server did not say)
  const kind = titleOf(view.game);
  $("title").textContent = `Replay — ${kind}: ${replay.names.join(", ")}`;
  document.title = `mummy — replay of ${kind}`;
  const rendererPromise = loadRenderer(view.game);

  let first;
  try {
    first = await fetchStep(Number.isInteger(wanted) && wanted > 0 ? wanted : 0);
  } catch (error) {
    if (error instanceof ApiError && error.status === 422) {
      try { first = await fetchStep(0); } catch (again) { error = again; }
    }
    if (!first) {
      const live = error instanceof ApiError && error.status === 409
        ? h("p", {}, h("a", { href: `/play/${encodeURIComponent(gameId)}` }, "Watch the game live instead")) : null;
      fail(errorText(error), live);
      return;
    }
  }
  replay.steps = first.steps;
  const renderer = await rendererPromise;
  if (renderer.draw) replay.renderer = renderer;
  else replay.rendererError = `The board cannot be drawn: ${renderer.error}.`;

  // The outcome in the words of the game's content (its results' units), as the results screen has them.
  $("replay-result-body").replaceChildren(...resultList(view, await content(view.game).then((c) => c.results, () => null)));
  controls.hidden = false;
  setStatus(`${first.steps} steps`, "open");
  $("replay-first").addEventListener("click", () => goto(0));
  $("replay-prev").addEventListener("click", () => goto(replay.current - 1));
  $("replay-next").addEventListener("click", () => goto(replay.current + 1));
  $("replay-last").addEventListener("click", () => goto(replay.steps));
  playButton.addEventListener("click", togglePlay);
  slider.addEventListener("input", () => goto(Number(slider.value)));
  document.addEventListener("keydown", onKey);

  replay.current = clamp(first.step);
  updateControls();
  if (new URLSearchParams(location.search).has("step")) history.replaceState(null, "", `${location.pathname}?step=${first.step}`);
  show(first);
  prefetch(first.step + 1);
  if (replay.renderer) {
    replay.review = await mountReview({ view, names: replay.names, board, content: renderer.data, goto: (step) => goto(step),
      shown: () => replay.shown, state: () => replay.state });
  }
  app.dataset.ready = "yes";
}

main();
