// The games the browser knows, as the server describes them (GET /api/games/kinds, read
// from its registry, mummy/games/): each one's title, and the module that draws it with its
// stylesheet. A game's module brings the rest, under the same names for every game: `mount`
// for the game page, `renderState` for the replay's read-only drawing, `drawMoveOn` for a
// review's move drawn over it, and how its final result reads (`outcome`, with the words of
// the game's content, `results`: the same as the results screen's; and `why`, the line on
// how it ended). The pages ask here rather than tell one game from another by name.
import { api } from "./api.js";
import { loadStylesheet } from "./dom.js";

const known = {};
let asked = null;

// Every game the server plays, by name (asked once a page; a second ask gets the same promise).
export function kinds() {
  if (!asked) {
    asked = api("/api/games/kinds").then((answer) => {
      for (const game of answer.games) known[game.name] = game;
      return known;
    });
    asked.catch(() => { asked = null; }); // a failed ask is asked again next time
  }
  return asked;
}

// A number with what it counts, in the words of the game's content (`results.units`:
// [one, many]), "134 points", "1 turn"; the bare number without them.
export function count(n, unit) {
  return unit ? `${n} ${n === 1 ? unit[0] : unit[1]}` : String(n);
}

// A game's title once the games are known (kinds()), or its name until then.
export function titleOf(game) {
  return known[game] ? known[game].title : game;
}

// The game's own module (only that one: a page never downloads the other game's code).
// It resolves once the game's stylesheet is in too: a page drawn before its styles apply
// flashes unstyled (keyboard hints on a phone, a map at its natural size). Asked once a
// game: a second ask gets the same promise, settled already when the page asked early
// (an import() of a loaded module still waits a turn of the event loop, a frame).
const modules = new Map();
export function loadModule(game) {
  if (!modules.has(game)) {
    modules.set(game, kinds().then((games) => {
      const page = games[game] && games[game].page;
      if (!page) throw new Error(`no drawing module for the game '${game}'`);
      return Promise.all([import(page.module), loadStylesheet(page.stylesheet)]).then(([module]) => module);
    }));
  }
  return modules.get(game);
}
