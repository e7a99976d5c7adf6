// Hints in a practice game of Treasure (docs/analysis.md §6): the Hint button asks the
// server for the choice with the fewest expected turns to fill the site (the exact values,
// POST /api/games/{id}/hint) and shows it the way the page shows a choice of the player's
// own: a take chooses the pile, turns it and marks the square (the Place button puts it
// there); a reroll holds the dice to keep; the line under the dice says it in words.
// As on the Tomb's page (js/tomb/hint.js): a solo game's player only, never a daily
// challenge, and a game that would rank asks first (a hint makes it a practice game): the
// button says so, and a second click takes the hint (as Remove does on the start page).
import { api, errorText } from "../api.js";
import { h } from "../dom.js";
import { bulb } from "../par.js";

// Whether the page offers a hint: your turn in a solo game, not a daily one.
export function hintable(view) {
  return view.you === 0 && !view.over && !view.daily && view.seats.length === 1;
}

export function hintButton(m) {
  if (!m.hint) return null;
  const { count, asking, confirming } = m.hint;
  const label = asking ? " Thinking…" : confirming ? " Hint: off the best scores for good — click again"
    : ` Hint${count ? ` (${count} taken)` : ""}`;
  return h("button", { type: "button", id: "hint", "data-focus": "hint", disabled: m.busy || asking,
    "data-confirm": confirming ? "yes" : null,
    title: "The choice with the fewest expected turns to fill your site (a hint makes this a practice game)",
    onclick: () => m.handlers.hint() }, bulb(), label);
}

// Ask (a game that would rank: at the second click), then show the answer on the page
// (`page`: the Treasure page, with `hinting` and `confirming` its state of the button).
export async function askHint(page) {
  const view = page.live.view;
  if (!view.config.hints && !view.config.seed_chosen && !page.confirming) {
    page.confirming = true;
    page.say("A hint makes this a practice game: it will never be on the best scores. Click Hint again to take one.");
    page.draw("hint");
    return;
  }
  page.confirming = false;
  page.hinting = true;
  page.draw();
  try {
    const answer = await api(`/api/games/${encodeURIComponent(view.id)}/hint`, { method: "POST", token: page.live.token, body: { practice: true } });
    view.config.hints = answer.hints;
    if (answer.version !== page.live.view.version) {
      page.say("The game moved on while the hint was worked out: ask again.");
    } else {
      show(page, answer);
    }
  } catch (error) {
    page.say(errorText(error), "error");
  } finally {
    page.hinting = false;
    page.draw();
  }
}

function show(page, answer) {
  const action = answer.json[0];
  const worth = answer.worth === null ? "" : ` (${answer.exact ? "" : "about "}${Math.round(answer.worth * 10) / 10} turns in all, expected)`;
  if (action.kind === "take") {
    page.ui.pile = action.pile;
    page.ui.orient = action.orient;
    page.ui.armed = action.square;
    page.ui.hover = action.square;
  } else if (action.kind === "reroll") {
    page.handlers.suggest(action.dice);
  }
  page.say(`Hint (the ${answer.bot} bot): ${answer.sentences[0] || answer.actions[0]}${worth}.`);
}
