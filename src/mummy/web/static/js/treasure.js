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
export { mount } from "./treasure/page.js";
export { renderTreasureState } from "./treasure/table.js";
export { drawMoveOn } from "./treasure/site.js";
