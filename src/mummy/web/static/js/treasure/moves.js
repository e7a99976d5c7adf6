// The other players' moves, one step at a time. A bot plays its whole turn at once, and
// its moves reach the page in one view: drawn as they come, the bot's tile would just be
// there and its rolls never seen. So the page takes the steps between the last view it
// drew and the new one, and shows them one after the other: the dice tumble for a roll,
// the tile drops onto its site for a take, and a sentence says what happened.
//
// The steps come from the view's game log (`view.log`, contracts §1: each entry's seat,
// its sentence, and `chance` when it revealed a roll) when the server sends one; else
// from what changed between the two states (tiles added, turns passed, a new roll).

// The tiles each seat gained between two states, in the order they were placed.
function gained(before, after) {
  return after.seats.map((s, i) => {
    const had = new Set(((before.seats[i] || {}).tiles || []).map((t) => t.tile));
    return s.tiles.filter((t) => !had.has(t.tile));
  });
}

function tileWords(tile, content) {
  const pile = content.piles.find((p) => p.tiles.some((t) => t.tile === tile.tile));
  return pile ? `the ${pile.rows}×${pile.cols} ${pile.pile}` : "a tile";
}

// The dice a roll's `chance` line shows ("The dice show S P E P C"): its last letters, when
// they are five symbols; else null (the dice then tumble blank).
function diceOf(chance, symbols, count) {
  const letters = (chance || "").trim().split(/\s+/).slice(-count);
  return letters.length === count && letters.every((l) => l.length === 1 && symbols.includes(l)) ? letters : null;
}

// Steps from the game log: every entry after `prev`'s version made by someone else. An
// entry that revealed a roll is a roll; any other is a take when its seat gained a tile
// still unshown, else a pass.
function fromLog(prev, view, you, added, rules) {
  const left = added.map((tiles) => [...tiles]);
  const steps = [];
  for (const e of view.log) {
    if (e.version <= prev.version || e.seat === you) {
      if (e.version > prev.version && left[e.seat] && !e.chance && left[e.seat].length) left[e.seat].shift();
      continue;
    }
    const tile = !e.chance && left[e.seat] && left[e.seat].length ? left[e.seat].shift() : null;
    steps.push({ kind: e.chance ? "roll" : tile ? "take" : "pass", seat: e.seat, version: e.version, tile: tile ? tile.tile : null,
      text: e.sentence || e.text, dice: e.chance ? diceOf(e.chance, rules.symbols, rules.dice) : null });
  }
  return steps;
}

// Steps from the two states only: per seat, in turn order from the one that was to play,
// its roll and its take (or pass); then the roll of the one now to play.
function fromStates(prev, view, you, added, names, content) {
  const a = prev.state;
  const b = view.state;
  const n = b.seats.length;
  const steps = [];
  for (let k = 0; k < n; k++) {
    const i = (a.current + k) % n;
    if (i === you) continue;
    const name = names[i];
    const turns = b.seats[i].turns - a.seats[i].turns;
    for (const t of added[i]) {
      steps.push({ kind: "roll", seat: i, text: `${name} rolls the dice…` });
      steps.push({ kind: "take", seat: i, tile: t.tile, text: `${name} took ${tileWords(t, content)} at ${t.square}` });
    }
    const passes = turns - added[i].length - (i === b.current && b.rolls > 0 && !b.over ? 1 : 0);
    for (let p = 0; p < passes; p++) steps.push({ kind: "pass", seat: i, text: `${name} could take nothing and passed` });
  }
  const rolledNow = !b.over && b.current !== you && b.rolls > 0 && (b.rolls !== a.rolls || b.current !== a.current);
  if (rolledNow) steps.push({ kind: "roll", seat: b.current, text: `${names[b.current]} rolls: roll ${b.rolls}` });
  return steps;
}

// The steps to show between the view drawn last and `view`, for the seat `you` (null
// for a spectator, who sees everyone's steps). None when the game jumped far (a reload).
export function stepsBetween(prev, view, you, content) {
  if (!prev || !view || view.version <= prev.version || view.version - prev.version > 40) return [];
  const names = view.seats.map((s, i) => s.name || `player ${i + 1}`);
  const added = gained(prev.state, view.state);
  const logged = Array.isArray(view.log) && view.log.length && view.log[0].version <= prev.version + 1;
  return logged ? fromLog(prev, view, you, added, content.rules) : fromStates(prev, view, you, added, names, content);
}

// The tiles still to drop in: those of the steps not shown yet.
export function tilesAhead(steps) {
  return new Set(steps.filter((s) => s.tile).map((s) => s.tile));
}
