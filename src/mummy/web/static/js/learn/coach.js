// The tutorial's coach: for the step at hand, what to do next (one control at a time, the
// control to use marked on the page), and why a choice that is not the example's is not
// taken. The steps come from the server (GET /api/tutorial, mummy/server/tutorial.py),
// checked against the engine there; this module only reads them.

const valueOf = (view, slot) => {
  const sheet = view.state.sheets[view.you];
  const die = sheet.dice.row.find((d) => d.slot === slot);
  return die ? die.value : null;
};
const shapeName = (t, shape) => `the ${t.content.shapes[shape].name} (${shape})`;
const shapesOf = (t, value) => t.content.table[value - 1];

// The next thing to press or click, in words, and its key ("die", "shape", "orient",
// "square", "choose", "end"): the page marks that control.
export function nextMove(t) {
  const { move } = t.step;
  const { ui } = t;
  if (move.kind === "choose") return { key: "choose", text: `Under Coins, press ${move.value} after “Choose (3)”: 3 coins write a ${move.value} into your free slot.` };
  if (move.kind === "end") return { key: "end", text: "Press “End round”." };
  const value = valueOf(t.view, move.dice[0]);
  if (ui.slot !== move.dice[0]) return { key: "die", text: `Click the ${value} in slot ${move.dice[0]} of your dice.` };
  if (ui.shape !== move.shape) return { key: "shape", text: `Choose ${shapeName(t, move.shape)}.` };
  if (ui.orient !== move.orient) return { key: "orient", text: "Turn it: choose the orientation marked in orange." };
  return { key: "square", text: `Click ${move.square} on the map (outlined in orange): the tile's top square, the left-most of its top row, goes there.` };
}

const notNow = (t) => `Not now: ${t.step.do}`;

// A die clicked: the example's die is chosen (an equal die stands for it), anything else
// is explained. Returns {slot} to choose, or {wrong} to say.
export function judgeDie(t, slot) {
  const { move } = t.step;
  const sheet = t.view.state.sheets[t.view.you];
  const die = sheet.dice.row.find((d) => d.slot === slot);
  if (die.used) return { wrong: `That ${die.value} is used already: each die is used once (T4.2).` };
  if (move.kind !== "place") return { wrong: notNow(t) };
  const want = valueOf(t.view, move.dice[0]);
  if (die.value !== want) {
    const [a, b] = shapesOf(t, want);
    return { wrong: `This step needs the ${want}: a ${want} places ${shapeName(t, a)} or ${shapeName(t, b)} (T2.2); that die is a ${die.value}.` };
  }
  return { slot: move.dice[0] };
}

export function judgeShape(t, shape) {
  const { move } = t.step;
  if (shape === move.shape) return {};
  const [a, b] = shapesOf(t, valueOf(t.view, move.dice[0]));
  return { wrong: `Either shape of the row may be placed (T2.2: ${a} or ${b}), but the example places ${shapeName(t, move.shape)} now. ${t.step.why}` };
}

export function judgeChoose(t, value) {
  const { move } = t.step;
  if (move.kind !== "choose") return { wrong: notNow(t) };
  if (value === move.value) return {};
  return { wrong: `A ${value} is allowed (T4.3), but ${t.step.other}` };
}

export function judgeBuy(t) {
  if (t.step.move.kind !== "choose") return { wrong: notNow(t) };
  return { wrong: `2 coins roll a new die, but you cannot know its value (T4.3). ${t.step.other}` };
}

export function judgeEnd(t) {
  if (t.step.move.kind === "end") return {};
  return { wrong: "Not yet: a round ends when every die in your row has been used (T4.4)." };
}
