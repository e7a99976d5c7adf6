// The game kinds the browser knows, in the manner of the server's registry (mummy/games.py):
// each one's title, the module that draws it (its `mount` for the game page, its read-only
// drawing for the replay page) and how its final result reads. The game and replay pages
// ask here rather than tell one game from the other by name (the start page's form still
// has each game's own options).
import { loadStylesheet } from "./dom.js";

export const GAMES = {
  tomb: {
    title: "The Mummy's Tomb",
    module: "./tomb.js",
    stylesheet: "/static/css/tomb.css",
    renderer: "renderTombState",
    outcome: (result, i) => `${result.scores[i]} points`,
    why: () => null,
  },
  treasure: {
    title: "Mummy's Treasure",
    module: "./treasure.js",
    stylesheet: "/static/css/treasure.css",
    renderer: "renderTreasureState",
    outcome: (result, i) => `${result.squares[i]} squares covered${result.turns ? ` in ${result.turns[i]} turns` : ""}`,
    why: (result, names) => (result.reason === "full"
      ? `${names[result.winner] ?? "A player"} filled their site.`
      : "No tile could be taken any more."),
  },
};

// A game's title, or its name when the client does not know it.
export function titleOf(game) {
  return GAMES[game] ? GAMES[game].title : game;
}

// The game's own module (only that one: a page never downloads the other game's code).
// It resolves once the game's stylesheet is in too: a page drawn before its styles apply
// flashes unstyled (keyboard hints on a phone, a map at its natural size).
export async function loadModule(game) {
  const kind = GAMES[game];
  if (!kind) throw new Error(`no drawing module for the game '${game}'`);
  const [module] = await Promise.all([import(kind.module), loadStylesheet(kind.stylesheet)]);
  return module;
}
