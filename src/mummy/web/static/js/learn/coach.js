// The tutorial's coach: its judgement, over the game page's own board and controls
// (js/tomb/page.js; js/tutorial.js draws the coach's panel). For the step at hand it says
// what to press next (one control at a time, the control marked on the page), and why a
// choice that is not the example's is not taken. How far the example has come is read from
// the game's state, never counted by the page, so a reload or an Undo finds the right step.
// The steps come from the server (GET /api/tutorial, mummy/server/coaching/tutorial.py), checked
// against the engine there; this module only reads them.

const dieValue = (sheet, slot) => {
  const die = sheet.dice.row.find((d) => d.slot === slot);
  return die ? die.value : null;
};
const shapeName = (content, shape) => `the ${content.shapes[shape].name} (${shape})`;
const shapesOf = (content, value) => content.table[value - 1];

// Is the step done in this sheet? Its tile lies where the example puts it, its chosen die
// is in the row, or (for the end, and for every step) the round has moved on.
function done(step, sheet) {
  if (sheet.round > 1) return true;
  const m = step.move;
  if (m.kind === "place") return sheet.tiles.some((t) => t.shape === m.shape && t.orient === m.orient && t.square === m.square);
  if (m.kind === "choose") return sheet.dice.row.some((d) => d.source === "choose" && d.value === m.value);
  return false;
}

// The index of the first step not done yet (the number of steps when all are).
export function progress(steps, sheet) {
  let i = 0;
  while (i < steps.length && done(steps[i], sheet)) i += 1;
  return i;
}

// Is the listed action the example's move? Equal dice are interchangeable (T4.2): the
// example's tile from any die of its value is the example's.
export function isExample(step, action, sheet) {
  const m = step.move;
  if (!action || action.kind !== m.kind) return false;
  if (m.kind === "place") {
    const dice = action.dice || [];
    return action.shape === m.shape && action.orient === m.orient && action.square === m.square
      && dice.length === 1 && dieValue(sheet, dice[0]) === step.die;
  }
  if (m.kind === "choose") return action.value === m.value;
  return true;
}

// The unused dice of the row that the step's tile may be placed with.
export function stepDice(step, sheet) {
  return step.die === null ? [] : sheet.dice.row.filter((d) => !d.used && d.value === step.die);
}

// The next thing to press or click, in words, and its key ("die", "shape", "orient",
// "square", "confirm", "choose", "end"): the page marks that control. `ui` is the game
// page's choice (page.js); `touch`, a touch screen (a tap previews, a second tap places).
export function nextMove(step, ui, sheet, content, touch) {
  const m = step.move;
  if (m.kind === "choose") return { key: "choose", text: `Under “Buy a die of your choice (3 coins)”, press ${m.value}: your 3 coins write a ${m.value} into the free slot.` };
  if (m.kind === "end") return { key: "end", text: "Press “End the round”." };
  if (typeof ui.slot !== "number" || dieValue(sheet, ui.slot) !== step.die) {
    const dice = stepDice(step, sheet);
    const which = dice.length > 1 ? `one of your ${step.die}s (dice ${dice.map((d) => d.slot).join(" and ")})` : `the ${step.die} (die ${dice.map((d) => d.slot).join("")})`;
    return { key: "die", text: `${touch ? "Tap" : "Click"} ${which} in your dice.` };
  }
  if (!ui.tool || ui.tool.kind !== "place" || ui.tool.shape !== m.shape) {
    return { key: "shape", text: `Choose ${shapeName(content, m.shape)} under your die.` };
  }
  if (ui.orient !== m.orient) return { key: "orient", text: `Turn it: press the picture of the ${content.shapes[m.shape].name} ringed in orange.` };
  if (touch && ui.armed === m.square) return { key: "confirm", text: `Tap ${m.square} again, or press “Place at ${m.square}”.` };
  return {
    key: "square",
    text: `${touch ? "Tap" : "Click"} ${m.square} on the map (ringed in orange): the piece's top-left square, with the dot, goes there.${touch ? " A first tap shows the piece, a second places it." : ""}`,
  };
}

const notNow = (step) => `Not now: ${step.do}`;

// A die, an item or a shape about to be chosen: null when it is the example's (or
// harmless), else why not.
export function judgePick(kind, value, step, sheet, content) {
  const m = step.move;
  if (kind === "source") {
    if (typeof value !== "number") return `The example does not use an item in this round. ${notNow(step)}`;
    if (m.kind !== "place") return notNow(step);
    const want = step.die;
    const got = dieValue(sheet, value);
    if (got === want) return null;
    const [a, b] = shapesOf(content, want);
    return `This step needs a ${want}: a ${want} places ${shapeName(content, a)} or ${shapeName(content, b)} (T2.2); that die is a ${got}.`;
  }
  if (kind === "shape" && m.kind === "place" && value !== m.shape) {
    const [a, b] = shapesOf(content, step.die);
    return `Either shape of the row may be placed (T2.2: ${a} or ${b}), but the example places ${shapeName(content, m.shape)} now. ${step.why}`;
  }
  return null;
}

// A move about to be sent: null to send it, else why the example does not make it. A
// move the engine does not list is sent: the engine refuses it with its rule.
export function judgeAct(text, action, step, sheet, content) {
  const m = step.move;
  if (text === "undo" || !action || isExample(step, action, sheet)) return null;
  if (action.kind === "place" && m.kind === "place") {
    if (action.shape !== m.shape) return judgePick("shape", action.shape, step, sheet, content);
    return step.other;
  }
  if (action.kind === "choose" && m.kind === "choose") return `A ${action.value} is allowed (T4.3), but ${step.other}`;
  if (action.kind === "buy" && m.kind === "choose") return `2 coins roll a new die, but you cannot know its value (T4.3). ${step.other}`;
  if (action.kind === "end") return `Not yet: ${step.do}`;
  if (action.kind === "up" || action.kind === "down") return `Paying a coin to turn a die is allowed (T4.3), but the example uses its dice as they are. ${step.do}`;
  return `That is allowed, but not the example's move. ${step.do}`;
}
