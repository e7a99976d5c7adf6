// Treasure's actions as the page reads them: data, never text. The server lists the legal
// actions of a view in `view.actions`, each the action's JSON form (docs/treasure-notation.md;
// mummy/treasure/actions.py `to_json`) with its `text`, which is what the page sends:
//
//   kind    roll | reroll | take | pass
//   dice    reroll: the symbols of the dice rerolled, in the canonical order ("SJ")
//   pile    take: the pile whose top tile is taken
//   square  take: the tile's top-left square on the site (none: the game arranges, R5.1)
//   orient  take: "h" (lying as listed) or "v" (turned)

// Letters in the symbols' canonical order (the content's rules.symbols).
export function sortSymbols(letters, order) {
  return [...letters].sort((a, b) => order.indexOf(a) - order.indexOf(b)).join("");
}

// The legal actions as the page needs them: the roll and the pass (or null), the rerolls
// by their dice, and per pile where its top tile can go (orientation -> square -> the
// action) or, in the movable variant, the take that lets the game arrange.
export function readLegal(actions) {
  const out = { roll: null, pass: null, rerolls: new Map(), takes: new Map(), auto: new Map() };
  for (const a of actions || []) {
    if (a.kind === "roll") out.roll = a;
    else if (a.kind === "pass") out.pass = a;
    else if (a.kind === "reroll") out.rerolls.set(a.dice, a);
    else if (a.kind === "take" && a.square) {
      if (!out.takes.has(a.pile)) out.takes.set(a.pile, { h: new Map(), v: new Map() });
      out.takes.get(a.pile)[a.orient].set(a.square, a);
    } else if (a.kind === "take") out.auto.set(a.pile, a);
  }
  return out;
}

// The notation of an action the server did not list, to send anyway for the engine to
// say why not (mummy/treasure/actions.py `fmt`): it only writes one, it never reads one.
export function notation(a) {
  if (a.kind === "reroll") return `reroll:${a.dice}`;
  if (a.kind === "take") return a.square ? `take:${a.pile}@${a.square}.${a.orient}` : `take:${a.pile}`;
  return a.kind;
}

// The text to send for `want`: the listed action's (`listed`, if any), else its notation.
export const textOf = (listed, want) => (listed ? listed.text : notation(want));

// What the roll button does now: the first roll, or a reroll of the dice not held.
export function rollAction(m) {
  const st = m.state;
  const rolls = m.rules.rolls;
  if (st.rolls === 0) return { text: textOf(m.legal.roll, { kind: "roll" }), label: "Roll the dice", legal: !!m.legal.roll };
  if (st.rolls >= rolls) return { text: "", label: "No reroll left", legal: false };
  const letters = m.ui.tray.rerolling(st, m.rules.symbols); // the dice not held (tray.js)
  const n = letters.length;
  const listed = n ? m.legal.rerolls.get(letters) : null;
  return { text: n ? textOf(listed, { kind: "reroll", dice: letters }) : "", label: n ? `Reroll ${n} ${n === 1 ? "die" : "dice"} (${letters})` : "Reroll",
    legal: !!listed };
}
