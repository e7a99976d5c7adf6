// Mummy's Treasure in the browser: the six piles with their top tiles and exact odds, the
// five dice with holds, your site to place tiles on, the other sites, and the result.
// The engine on the server is the judge: the page lights up what the view's legal actions
// (`view.actions`, as data) allow, a placement that cannot be legal is refused here with
// the rule the engine would name (R3.3), and anything the server refuses is shown with its
// rule id; nothing is lost.
//
// The modules: treasure/page.js the game page (its state, clicks, keys, drawing),
// treasure/table.js the whole table, treasure/dice.js the dice, treasure/piles.js the
// piles and their odds, treasure/site.js the sites, treasure/status.js the turn line and
// the result, treasure/symbols.js the symbols, and treasure/legal.js the legal actions as data.
import { count } from "./games.js";

export { mount } from "./treasure/page.js";
export { renderTreasureState, renderTreasureState as renderState } from "./treasure/table.js";
export { drawMoveOn } from "./treasure/site.js";

// How a seat's final result reads (js/games.js): squares covered, in how many turns.
export function outcome(result, i, words) {
  return `${count(result.squares[i], words?.units.total)}`
    + `${result.turns ? ` in ${count(result.turns[i], words?.units.turns)}` : ""}`;
}

// How the game ended (R4.1: a site filled, or no tile could be taken any more).
export function why(result, names) {
  return result.reason === "full" ? `${names[result.winner] ?? "A player"} filled their site.`
    : "No tile could be taken any more.";
}
