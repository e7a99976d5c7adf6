// The other players' moves, one step at a time. A bot plays its whole turn at once, and
// its moves reach the page in one view: drawn as they come, the bot's tile would just be
// there and its rolls never seen. So the page takes the steps between the last view it
// drew and the new one, and shows them one after the other: the dice tumble for a roll,
// the tile drops onto its site for a take, and a sentence says what happened.
//
// The steps are the view's game log (`view.log`, docs/server.md §3.9), read as data only:
// a roll's entry carries its `dice` (the five faces, and which were held), a take's its
// `tile` and `squares`; an entry with neither is a pass. Neither the sentence nor the
// notation is read. An entry older than the log's tail is not shown as a step: its
// tile is simply there.
import { rearrange } from "./tray.js";

// One log entry as a step.
function stepOf(e) {
  const dice = e.dice && Array.isArray(e.dice.faces) ? { faces: e.dice.faces, held: e.dice.held || [] } : null;
  return {
    kind: dice ? "roll" : e.tile ? "take" : "pass",
    seat: e.seat,
    version: e.version,
    text: e.sentence || e.text,
    dice,
    tile: e.tile || null,
    squares: e.squares || [],
  };
}

// The steps to show between the view drawn last and `view`, for the seat `you` (null
// for a spectator, who sees everyone's steps): the log's entries after `prev`'s version
// made by someone else. None on a first view (a load or a reload).
export function stepsBetween(prev, view, you) {
  if (!prev || !view || view.version <= prev.version || !Array.isArray(view.log)) return [];
  return view.log.filter((e) => e.version > prev.version && e.seat !== you).map(stepOf);
}

// A roll's dice in the places the same player's dice had (`before`, the letters shown by
// their previous step; empty at a turn's first roll): the held dice stay where they were,
// the rolled ones take the other places in the faces' order and tumble, as the player's
// own dice do in the tray (tray.js).
export function rollLetters(before, dice, symbols) {
  const faces = dice.faces;
  const keep = faces.filter((_, i) => dice.held[i]);
  if (!before.length || before.length !== faces.length) {
    return { letters: [...faces], rolled: new Set(faces.map((_, i) => i).filter((i) => !dice.held[i])) };
  }
  const pool = [...keep];
  const stay = new Set();
  before.forEach((letter, i) => {
    const k = pool.indexOf(letter);
    if (k >= 0) { pool.splice(k, 1); stay.add(i); }
  });
  const r = rearrange(before, stay, faces.join(""), symbols);
  return { letters: r.letters, rolled: r.rolled };
}

// The tiles still to drop in: those of the steps not shown yet.
export function tilesAhead(steps) {
  return new Set(steps.filter((s) => s.tile).map((s) => s.tile));
}
