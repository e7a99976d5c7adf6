// The Tomb's actions as the page reads them: data, never text. The server lists the legal
// actions of a view in `view.actions`, each the action's JSON form (docs/tomb-notation.md;
// mummy/tomb/actions.py `to_json`) with its `text`, which is what the page sends:
//
//   kind    place dig erase add defeat open up down buy choose discard end
//   dice    the die slots spent, 1-based ([1], or [1, 2] for a room)
//   shape   a tile's shape ("5a", "room")        monster  what a defeat defeats
//   orient  a tile's orientation ("r0".."f3"); a dig's open sides ("ne")
//   square  a tile's anchor or a dug square      edge     a Wand's edge ("J1n")
//   colour  a golem's colour                     value    a chosen die's value
//   item    the Wand or the Shovel spent as the source (no dice), or the Hammer or the
//           Skeleton Key ("skey") helping a defeat or an opening

export const slotsOf = (a) => a.dice || [];

// Does the action spend die `slot`?
export const usesDie = (slot) => (a) => slotsOf(a).includes(slot);

function same(x, y) {
  if (Array.isArray(x) || Array.isArray(y)) return String(x || []) === String(y || []);
  return (x ?? null) === (y ?? null);
}

// Is `a` (a listed action) the action `want` (its JSON form)? Every field the same.
export function isAction(a, want) {
  const keys = new Set([...Object.keys(a), ...Object.keys(want)]);
  keys.delete("text");
  return [...keys].every((k) => same(a[k], want[k]));
}

// The listed action that is `want`, or undefined.
export function findAction(actions, want) {
  return actions.find((a) => a.kind === want.kind && isAction(a, want)); // the kind first: cheap
}

// The notation of an action the server did not list (a click where the engine will say
// why not: the page sends it anyway and shows the refusal). Listed actions carry their
// own `text`; this only writes one (mummy/tomb/actions.py `fmt`), it never reads one.
export function notation(a) {
  if (a.kind === "end" || a.kind === "buy") return a.kind;
  if (a.kind === "open") return a.item === "skey" ? "open+skey" : "open";
  if (a.kind === "choose") return `buy${a.value}`;
  const source = a.item === "wand" || a.item === "shovel" ? a.item : slotsOf(a).join("+");
  if (a.kind === "place") return `${source}:${a.shape}.${a.orient}@${a.square}`;
  if (a.kind === "dig") return `${source}:dig.${a.orient}@${a.square}`;
  if (a.kind === "erase" || a.kind === "add") return `${source}:${a.kind}@${a.edge}`;
  if (a.kind === "defeat") {
    return `${source}:${a.colour ? `${a.monster}.${a.colour}` : a.monster}${a.item ? `+${a.item}` : ""}`;
  }
  return `${source}:${a.kind}`;
}

// The text to send for `want`: the listed action's, else its notation.
export function textFor(actions, want) {
  const a = findAction(actions, want);
  return a ? a.text : notation(want);
}

// The name of the item that helps a defeat (the Hammer, T6.3) or an opening.
export const HELPER_NAME = { hammer: "Hammer", skey: "Skeleton Key" };

// Equal dice are interchangeable, so the engine lists each single-die action once, at the
// lowest unused slot holding that value (mummy/tomb/moves.py). The page lets the player
// pick either die: every such action is copied for each other unused die of the same value,
// with that die's slot, so the die clicked is the die spent (the engine takes any of them).
export function withEqualDice(actions, row) {
  const lowest = new Map(); // value -> the lowest unused slot holding it
  for (const d of row) if (!d.used && !lowest.has(d.value)) lowest.set(d.value, d.slot);
  const twins = new Map(); // that lowest slot -> the other unused slots of its value
  for (const d of row) {
    const first = lowest.get(d.value);
    if (!d.used && first !== d.slot) twins.set(first, [...(twins.get(first) || []), d.slot]);
  }
  if (!twins.size) return actions;
  const out = [];
  for (const a of actions) {
    out.push(a);
    const slots = slotsOf(a);
    if (slots.length !== 1 || !twins.has(slots[0])) continue;
    for (const slot of twins.get(slots[0])) {
      out.push({ ...a, dice: [slot], text: a.text.replace(/^\d+:/, `${slot}:`) });
    }
  }
  return out;
}
