// The game kinds the browser knows, in the manner of the server's registry (mummy/games.py):
// each one's title, the module that draws it (its `mount` for the game page, its read-only
// drawing for the replay page, and a review's move drawn over that drawing) and how its final result reads (`outcome`, with the words
// of the game's content, `results`: the same as the results screen's). The game and replay pages
// ask here rather than tell one game from the other by name (the start page's form still
// has each game's own options).
import { loadStylesheet } from "./dom.js";

export const GAMES = {
  tomb: {
    title: "The Mummy's Tomb",
    module: "./tomb.js",
    stylesheet: "/static/css/tomb.css",
    renderer: "renderTombState",
    mover: "drawMoveOn", // a review's move drawn on a seat's sheet in the replay (js/review.js)
    outcome: (result, i, words) => count(result.scores[i], words?.units.total),
    why: () => null,
  },
  treasure: {
    title: "Mummy's Treasure",
    module: "./treasure.js",
    stylesheet: "/static/css/treasure.css",
    renderer: "renderTreasureState",
    mover: "drawMoveOn",
    outcome: (result, i, words) => `${count(result.squares[i], words?.units.total)}`
      + `${result.turns ? ` in ${count(result.turns[i], words?.units.turns)}` : ""}`,
    why: (result, names) => (result.reason === "full"
      ? `${names[result.winner] ?? "A player"} filled their site.`
      : "No tile could be taken any more."),
  },
};

// A number with what it counts, in the words of the game's content (`results.units`:
// [one, many]), "134 points", "1 turn"; the bare number without them.
export function count(n, unit) {
  return unit ? `${n} ${n === 1 ? unit[0] : unit[1]}` : String(n);
}

// A game's title, or its name when the client does not know it.
export function titleOf(game) {
  return GAMES[game] ? GAMES[game].title : game;
}

// The game's own module (only that one: a page never downloads the other game's code).
// It resolves once the game's stylesheet is in too: a page drawn before its styles apply
// flashes unstyled (keyboard hints on a phone, a map at its natural size). Asked once a
// game: a second ask gets the same promise, settled already when the page asked early
// (an import() of a loaded module still waits a turn of the event loop, a frame).
const modules = new Map();
export function loadModule(game) {
  const kind = GAMES[game];
  if (!kind) return Promise.reject(new Error(`no drawing module for the game '${game}'`));
  if (!modules.has(game)) {
    modules.set(game, Promise.all([import(kind.module), loadStylesheet(kind.stylesheet)]).then(([module]) => module));
  }
  return modules.get(game);
}
