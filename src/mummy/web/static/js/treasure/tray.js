// The dice as the player sees them: five dice that keep their place on the table.
//
// The engine keeps the dice as a multiset in the symbols' canonical order (the view's
// `state.dice`, "SAEPP"), and sorts them again after every reroll (R3.1). Drawn in that
// order, a held die would jump to another place after a reroll, and its hold with it
// (hold dice 4 and 5, reroll, and "HELD" sat on other dice). So the page keeps
// its own order, the tray: the held dice stay where they were, and the dice that came up
// take the places of the dice rerolled. A hold belongs to a die, not to a place in a
// sorted string.
import { sortSymbols } from "./legal.js";

// Takes one `letter` out of `pool` (an array used as a multiset); whether it was there.
function takeOut(pool, letter) {
  const k = pool.indexOf(letter);
  if (k < 0) return false;
  pool.splice(k, 1);
  return true;
}

// The tray after a reroll: `before` (the tray's letters) with the places in `kept` staying
// as they were, and the other places filled with the rest of `dice` (the new multiset) in
// canonical order. A kept place whose letter is not among the new dice (a view from
// elsewhere, another tab) is given up. Returns the letters and the places that were rolled.
export function rearrange(before, kept, dice, order) {
  const pool = [...dice];
  const letters = Array(dice.length).fill(null);
  const stay = new Set();
  for (const i of [...kept].sort((a, b) => a - b)) {
    if (i < letters.length && before[i] && takeOut(pool, before[i])) { letters[i] = before[i]; stay.add(i); }
  }
  const fresh = [...sortSymbols(pool.join(""), order)];
  const rolled = new Set();
  for (let i = 0; i < letters.length; i++) {
    if (letters[i] === null) { letters[i] = fresh.shift(); rolled.add(i); }
  }
  return { letters, rolled, stay };
}

// Where each die sits, which are held, and which just rolled (for the animation).
export class Tray {
  constructor() {
    this.letters = []; // the dice in the page's order (their multiset is state.dice)
    this.held = new Set(); // places held by this player
    this.rolled = new Set(); // places rolled by the last roll (drawn tumbling once)
    this.pending = null; // the places held when this page sent a reroll: {rolls, held}
  }

  // The dice showing, in the tray's order; the canonical order when the tray is stale.
  shown(state) {
    const dice = state.dice || "";
    return sameDice(this.letters, dice) ? this.letters : [...dice];
  }

  // This page is about to reroll the dice not held: remember which were held.
  sending(state) {
    this.pending = { rolls: state.rolls, current: state.current, held: new Set(this.held), letters: this.shown(state) };
  }

  // A new view: keep every die in its place across a reroll. `symbols` is the canonical
  // order (rules.symbols). A new turn (or a view from far ahead) starts a fresh tray.
  update(prev, state, symbols) {
    const dice = state.dice || "";
    const mine = this.pending && this.pending.current === state.current && state.rolls === this.pending.rolls + 1;
    const sameTurn = prev && prev.current === state.current && state.rolls > 0 && prev.rolls > 0 && state.rolls >= prev.rolls;
    if (!dice) {
      this.letters = []; this.held = new Set(); this.rolled = new Set();
    } else if (mine) {
      // Our own reroll: the held dice stayed, every other die was thrown.
      const r = rearrange(this.pending.letters, this.pending.held, dice, symbols);
      this.letters = r.letters; this.held = r.stay; this.rolled = r.rolled;
    } else if (sameTurn && state.rolls > prev.rolls) {
      // Someone else's reroll (or ours from another tab): the dice that still show keep
      // their place; the holds are ours only, so they are dropped.
      const before = this.shown(prev);
      const r = rearrange(before, before.map((_, i) => i), dice, symbols);
      this.letters = r.letters; this.held = new Set(); this.rolled = r.rolled;
    } else if (sameTurn && state.rolls === prev.rolls && state.dice === prev.dice) {
      this.rolled = new Set(); // the same roll drawn again: nothing moves, holds stay
    } else {
      // A first roll, or a turn we did not see begin: the dice as the engine lists them.
      this.letters = [...dice]; this.held = new Set(); this.rolled = new Set(this.letters.map((_, i) => i));
    }
    // Kept until the view that shows our reroll (a view drawn again before it keeps it).
    const waiting = this.pending && this.pending.current === state.current && state.rolls === this.pending.rolls;
    if (!waiting) this.pending = null;
  }

  // The letters of the dice not held, in canonical order: what a reroll names.
  rerolling(state, symbols) {
    return sortSymbols(this.shown(state).filter((_, i) => !this.held.has(i)).join(""), symbols);
  }

  toggle(i) {
    if (this.held.has(i)) this.held.delete(i); else this.held.add(i);
  }
}

// Whether the tray's letters are the view's dice (the same multiset).
function sameDice(letters, dice) {
  return letters.length === dice.length && [...letters].sort().join("") === [...dice].sort().join("");
}
