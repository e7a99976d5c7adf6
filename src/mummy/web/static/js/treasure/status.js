// Treasure's lines about the game: whose turn and what to do now, and the result (why it
// ended, R4.1-R4.3, places, squares and turns, and your own place) in one line.
import { h } from "../dom.js";
import { count } from "../games.js";

export function seatName(m, i) {
  return (m.names && m.names[i]) || m.state.seats[i].name || `player ${i + 1}`;
}

export function resultLines(m) {
  const st = m.state;
  const res = m.result || st.result;
  if (!res) return null;
  const n = st.seats.length;
  const turns = res.turns || st.seats.map((s) => s.turns);
  const squares = res.squares || st.seats.map((s) => s.covered.length);
  // What the numbers count, in the words of the game's content (as the results screen
  // and the replay say them: mummy.web.content).
  const units = m.content && m.content.results ? m.content.results.units : {};
  let headline;
  if (n === 1) {
    headline = res.reason === "full" ? `Site filled in ${count(turns[0], units.turns)} (R4.3).`
      : `Unfinished: no tile can fit any more; ${count(squares[0], units.total)} (R4.3).`;
  } else if (res.reason === "full" && res.winner >= 0) {
    headline = `${seatName(m, res.winner)} filled the site and wins (R4.1).`;
  } else {
    const best = res.places.map((p, i) => (p === 1 ? seatName(m, i) : null)).filter(Boolean);
    headline = `No tile can be taken any more (R4.2); the most: ${best.join(", ")}, ${count(Math.max(...squares), units.total)}.`;
  }
  // A solo game that got stuck has a score, not a winner (R4.3).
  const winners = n === 1 && res.reason !== "full" ? [] : res.places.map((p, i) => (p === 1 ? i : null)).filter((i) => i !== null);
  const mine = m.you !== null && m.you !== undefined && n > 1
    ? (res.places[m.you] === 1 ? (winners.length > 1 ? "You share first place!" : "You win!")
      : `You are ${ordinal(res.places[m.you])}.`) : null;
  return { headline, mine, winners, turns, squares, places: res.places };
}

function ordinal(n) {
  return `${n}${n === 1 ? "st" : n === 2 ? "nd" : n === 3 ? "rd" : "th"}`;
}

// A seat's place in the result, as the seat list shows it.
export function placeWord(place) {
  return place === 1 ? "1st ★" : ordinal(place);
}

// The game's end in one short line of the status (why it ended, and your place): the
// results screen (js/results.js, shown by the page shell) has the full table.
export function drawResult(m) {
  const r = resultLines(m);
  if (!r) return null;
  return h("p", { class: "t-result", id: "result", "data-testid": "result", "data-winners": r.winners.join(",") },
    h("strong", {}, "★ Game over: "), h("span", { class: "headline" }, r.headline),
    r.mine ? h("span", { class: "you-result" }, ` ${r.mine}`) : null);
}

export function turnLine(m) {
  const st = m.state;
  const rolls = m.rules.rolls; // a turn's rolls (R3.1)
  if (st.over) return "The game is over.";
  const name = seatName(m, st.current);
  const mine = m.you === st.current;
  const who = mine ? "Your turn" : `${name}'s turn${m.bots && m.bots[st.current] ? " (bot)" : ""}`;
  if (!m.interactive || !mine) return `${who}. ${st.rolls ? `Roll ${st.rolls} of ${rolls}.` : ""}`.trim();
  if (st.rolls === 0) return "Your turn: roll the dice."; // the keys are in the key hints (not on touch screens)
  if (m.legal.takes.size || m.legal.auto.size) {
    return st.rolls < rolls ? `Roll ${st.rolls} of ${rolls}: take a tile, or hold dice and reroll the others.`
      : `Roll ${rolls} of ${rolls}: take a tile (R3.2).`;
  }
  if (m.legal.pass) return `Roll ${rolls} of ${rolls}: no tile can be taken, so pass (R3.2).`;
  return `Roll ${st.rolls} of ${rolls}: nothing to take yet; hold dice and reroll the others.`;
}
