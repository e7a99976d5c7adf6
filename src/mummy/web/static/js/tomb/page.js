// The Tomb's game page: the state of the page (the chosen die or item, tool, orientation,
// cursor, the square a tap has chosen), what the legal actions allow for it, and the drawing
// of the whole page on every change, on one screen: the map, beside it the round's dice with
// the chosen die's controls, and the panels (layout.js, css/tomb.css). The sheet (board.js),
// the controls (tools.js) and the panels (panels.js) are drawn by their own modules; the
// other players' moves are shown one step at a time (steps.js).
import { describeError, errorText } from "../api.js";
import { rulesOf } from "../constants.js";
import { ARROWS, h, loadStylesheet } from "../dom.js";
import { logPanel, updateLog } from "../log.js";
import { Sender, actionsOf, foreignKey, seated } from "../session.js";
import { usesDie, withEqualDice } from "./actions.js";
import { actionAt, boardSheet, edgeAction, moveCursor, wandEdge } from "./board.js";
import { drawHint, followHint, hintPanel } from "./hint.js";
import { actionWords, fitSoon, fitToScreen, freshSquares, keepSame, newRoll } from "./layout.js";
import { phaseName, sidePanels } from "./panels.js";
import { Steps, revealIn, staged } from "./steps.js";
import { diceRow, globalButtons, toolButtons } from "./tools.js";
import { Previews, confirmWarnings } from "./warn.js";

// The attributes that find a focused control again after a redraw.
const FOCUS_KEYS = ["data-action", "data-slot", "data-orient", "data-dig", "data-tool", "data-source", "data-edge"];
const NOTHING = new Map();
// The dialog's title for each kind of action that may be warned about.
const ASK = { end: "End the round?", up: "Pay a coin?", down: "Pay a coin?", buy: "Buy this die?", choose: "Buy this die?" };

class TombPage {
  constructor(root, live, content) {
    this.live = live;
    this.content = content;
    this.rules = rulesOf("tomb", content);
    this.sender = new Sender(live); // first: a new view clears `busy` before it is drawn
    this.previews = new Previews(live);
    this.ui = {
      slot: null, // selected die slot, or "wand"/"shovel"
      tool: null, // {kind: "place", shape[, slots]} | {kind: "dig", sides} | {kind: "erase"} | {kind: "add"}
      orient: "r0",
      cursor: null, // square under the pointer or the keyboard cursor
      armed: null, // the square a first tap chose: a second tap (or Place) places there
    };
    this.view = live.view;
    this.legal = actionsOf(this.view);
    this.drawn = null; // the view drawn last: what changed since is animated
    this.steps = new Steps(() => this.render()); // the other players' moves still being shown
    this.shownStep = null; // the step drawn last: a new one slides in and is told
    this.sheetLayers = null;
    this.mapNow = null;
    const part = (tag, cls, attrs = {}) => h(tag, { class: cls, ...attrs });
    // The message line is one live region outside what each view redraws, so that screen
    // readers announce a refusal once; hidden while it has nothing to say.
    this.els = {
      message: part("p", "message tomb-message", { id: "message", role: "status", "aria-live": "polite", hidden: true }),
      layout: part("div", "tomb-layout"),
      board: part("div", "tomb-board panel"),
      status: part("div", "panel round tomb-status"),
      tools: part("div", "tomb-tools"),
      global: part("div", "tomb-global"),
      log: part("div", "tomb-log"),
      side: part("aside", "tomb-side", { "aria-label": "Your sheet's tracks and the other players" }),
    };
    const { els } = this;
    // The buttons that need no die first: choosing a die grows only what is below them, so
    // Buy, Undo and End the round never move under the pointer.
    const actions = h("section", { class: "panel tomb-actions", "aria-label": "What to do" }, els.global, els.tools, els.message);
    els.layout.append(els.board, h("div", { class: "tomb-controls" }, els.status, actions, els.log), els.side);
    root.append(els.layout);
  }

  say(text, kind = "info") {
    const m = this.els.message;
    m.textContent = text;
    m.className = `message ${kind} tomb-message`;
    m.hidden = !text;
  }

  async act(text) {
    if (this.sender.busy || this.asking) return;
    if (this.steps.stop()) this.render(); // the player moves on: the other players' steps are all shown
    const action = this.legal.find((a) => a.text === text);
    if (this.coach && !this.coach.allow(text, action)) return; // the tutorial's coach (js/tutorial.js) explains why not
    if (Previews.checked(action) && !(await this.confirmed(action))) {
      this.say("Cancelled: nothing was spent.", "info");
      return;
    }
    // The choice is spent by the click; the player may choose the next die before the
    // answer arrives. A refusal gives the choice back, unless another was made meanwhile.
    const chosen = { ...this.ui };
    Object.assign(this.ui, { tool: null, slot: null, armed: null });
    const sent = this.sender.send(text); // on its way now; the update that follows redraws the page
    const focused = this.letGoOfTools();
    try {
      const result = await sent;
      // The log's sentence when its view is here; until then the page's own words
      // (render() swaps in the sentence when that view arrives).
      this.tellVersion = result && result.version;
      if (!this.tellSentence()) this.say(actionWords(action, this.content) || `Done: ${text}`, "done");
    } catch (error) {
      if (this.ui.slot === null) Object.assign(this.ui, chosen);
      this.say(errorText(error), "error");
      if (this.coach) this.coach.refused(text, error);
      this.render();
      const again = focused && this.els.layout.querySelector(focused);
      if (again && document.activeElement === document.body) again.focus();
    }
  }

  // The chosen die's controls are spent by a move (they go with the update that shows it):
  // a control of theirs that has the focus (the shape clicked before the square) lets go of
  // it now, while the server answers, as it would when taken away. Taking the focused
  // element away in the middle of the update's redraw costs the browser 1 to 8 ms there
  // and then (measured: web.place_tile_ms), letting go of it now under 1 ms while the page
  // only waits. Returns what finds the control again (focusedKey), for a refused move to
  // give the focus back.
  letGoOfTools() {
    const el = document.activeElement;
    if (!el || !this.els.tools.contains(el)) return null;
    const key = this.focusedKey();
    el.blur();
    return key;
  }

  // Before a move that may waste something: the server's preview; with warnings, the
  // player confirms or cancels. No preview (an older server, a failure) asks nothing.
  async confirmed(action) {
    this.asking = true;
    try {
      // A failed ask is not kept (warn.js): asked once more before the move goes unasked.
      const seen = (await this.previews.fetch(action.text)) ?? (await this.previews.fetch(action.text));
      const warnings = seen && seen.warnings ? seen.warnings : [];
      if (!warnings.length) return true;
      return await confirmWarnings(warnings, { title: ASK[action.kind] || "This move wastes something", confirm: "Do it anyway" });
    } finally {
      this.asking = false;
    }
  }

  // -- what the legal actions allow the chosen source -------------------------------------
  mine() { return seated(this.view); }
  dieUsable(slot) { return this.legal.some(usesDie(slot)); }
  source() { return typeof this.ui.slot === "number" ? { dice: [this.ui.slot] } : { item: this.ui.slot }; }
  sourceActions() {
    return this.legal.filter(typeof this.ui.slot === "number" ? usesDie(this.ui.slot) : (a) => a.item === this.ui.slot);
  }
  orientsFor(shape) { return Object.keys(this.content.shapes[shape].orients); }
  placementsFor(shape) { return this.sourceActions().filter((a) => a.kind === "place" && a.shape === shape); }

  // -- choosing ---------------------------------------------------------------------------
  pickSource(source) {
    if (this.coach && source !== null && source !== this.ui.slot && !this.coach.pick("source", source)) return;
    Object.assign(this.ui, { slot: this.ui.slot === source ? null : source, tool: null, armed: null });
    this.render();
  }

  setTool(tool) {
    Object.assign(this.ui, { tool, armed: null });
    this.render();
  }

  chooseShape(shape, slots) {
    if (this.coach && !this.coach.pick("shape", shape)) return;
    const list = this.placementsFor(shape);
    const orients = this.orientsFor(shape);
    this.ui.orient = orients.find((o) => list.some((a) => a.orient === o)) || orients[0];
    this.setTool(slots ? { kind: "place", shape, slots } : { kind: "place", shape });
  }

  setOrient(orient) {
    this.ui.orient = orient;
    this.render();
  }

  rotate(step) {
    const { ui } = this;
    if (!ui.tool || ui.tool.kind !== "place") return;
    const s = this.content.shapes[ui.tool.shape];
    this.setOrient(s.aliases[`${ui.orient[0]}${(Number(ui.orient[1]) + step + 4) % 4}`]);
  }

  flip() {
    const { ui } = this;
    if (!ui.tool || ui.tool.kind !== "place") return;
    const s = this.content.shapes[ui.tool.shape];
    this.setOrient(s.aliases[`${ui.orient[0] === "r" ? "f" : "r"}${ui.orient[1]}`]);
  }

  // -- drawing ----------------------------------------------------------------------------
  render() {
    const { ui, content, els } = this;
    const view = this.view = this.live.view;
    followHint(this, view); // a hint's plan stays while it is followed (hint.js)
    const you = this.mine() ? view.you : 0;
    const sheet = view.state.sheets[you];
    this.legal = withEqualDice(actionsOf(view), sheet.dice.row);
    const map = content.maps[sheet.map];
    if (ui.slot !== null && !this.sourceActions().length) Object.assign(ui, { slot: null, tool: null, armed: null }); // used up, or gone
    // What arrived since the last drawing: tiles fade in, a new roll rolls (once); the
    // other players' moves are queued as steps (steps.js), a roll held for its step.
    const changed = !this.drawn || this.drawn.version !== view.version;
    const newDice = changed && newRoll(this.drawn, view);
    const held = changed && this.steps.arrive(this.drawn, view, this.mine() ? view.you : null, newDice);
    const step = this.steps.current;
    const stepped = step !== this.shownStep;
    this.shownStep = step;
    const fresh = this.freshNow(changed, stepped, you);
    const rolled = (newDice && !held) || (stepped && this.steps.rolling());
    if (changed || stepped) this.drawLog(view, step);
    if (changed && this.tellVersion) this.tellSentence();
    this.drawn = view;
    const later = this.steps.later();
    const sheets = view.state.sheets.map((s, i) => staged(s, later.get(i)));
    const playing = this.mine() && !view.over;
    const focusKey = this.focusedKey();
    // Each part drawn anew, and only what differs from what is there put in (layout.js
    // keepSame; the sheet: board.js): a placement costs the browser a few squares, not a page.
    keepSame(els.status, [
      h("div", { class: "row" }, h("h2", { id: "round" }, `Round ${view.state.round} of ${this.rules.rounds}`),
        h("span", { class: "badge", id: "phase", "data-phase": sheet.phase }, phaseName(sheet.phase, this.rules)),
        view.over ? h("span", { class: "muted" }, "· game over") : null),
      diceRow(this, sheet, rolled)]);
    const board = boardSheet(this, map, sheets[you], fresh.get(you));
    if (els.board.firstChild !== board) els.board.replaceChildren(board);
    drawHint(this, map);
    keepSame(els.tools, [playing ? toolButtons(this, sheet) : h("p", { class: "muted" }, view.over ? "The game is over." : "Watching.")]);
    keepSame(els.global, playing ? [globalButtons(this, sheet), hintPanel(this)].filter(Boolean) : []);
    keepSame(els.side, sidePanels(this, sheet, map, you, fresh, sheets).filter(Boolean));
    if (stepped) this.tellStep(step);
    els.layout.toggleAttribute("data-steps", !!step);
    if (focusKey) {
      // Keyboard users keep their place when the page is redrawn (any player's move redraws it).
      const again = els.layout.querySelector(focusKey);
      if (again) again.focus();
    }
    fitSoon(els.layout);
  }

  // Whether `view` is the one drawn last, arrived again: a resync's state at the version
  // already drawn (the socket reconnected while nothing moved). Drawing it again would change nothing; a view of another version, or of the
  // same version with something new (a rematch made), is drawn.
  drawnAlready(view) {
    const drawn = this.drawn;
    if (!drawn || !view || drawn === view || drawn.version !== view.version) return drawn === view;
    return JSON.stringify(drawn) === JSON.stringify(view);
  }

  // Say the server's sentence for the player's last action, once its view has arrived.
  tellSentence() {
    const entry = (this.live.view.log || []).find((e) => e.version === this.tellVersion && e.seat === this.view.you);
    if (!entry || !entry.sentence) return false;
    this.tellVersion = null;
    this.say(entry.sentence, "done");
    return true;
  }

  // Another player's step in the message line, with their name (as the log names them),
  // marked with its version; their sheet is brought into the side column's view.
  tellStep(step) {
    if (!step) {
      delete this.els.message.dataset.step;
      return;
    }
    const words = step.sentence || step.text;
    this.say(words.startsWith(step.name) ? words : `${step.name}: ${words}`, "step");
    this.els.message.dataset.step = String(step.version);
    revealIn(this.els.side, this.els.side.querySelector(`[data-other="${step.seat}"]`));
  }

  // The squares that glow as they arrive, by seat: while steps are shown, another seat's
  // are its step's (once, as the step begins); else the tiles new since the last view.
  freshNow(changed, stepped, you) {
    const fresh = changed ? freshSquares(this.drawn, this.view) : NOTHING;
    if (!this.steps.active) return fresh;
    const out = new Map(stepped ? this.steps.arriving() : NOTHING);
    if (this.mine() && fresh.has(you)) out.set(you, fresh.get(you)); // a spectator's sheet 0 steps too
    return out;
  }

  // The game's log in sentences (js/log.js), redrawn when the game moves on; while another
  // player's steps are shown, up to the step being shown, which is lit.
  drawLog(view, step) {
    const shown = step ? { ...view, log: (view.log || []).filter((e) => e.version <= step.version) } : view;
    if (!this.logBox) {
      this.logBox = logPanel(shown);
      this.els.log.append(this.logBox);
    } else {
      updateLog(this.logBox, shown);
    }
    for (const li of this.logBox.querySelectorAll(".log-entry")) li.classList.toggle("log-step", !!step && li.dataset.version === String(step.version));
  }

  // A selector for the element that has the focus, to find its new copy after a redraw.
  focusedKey() {
    const el = document.activeElement;
    if (!el || !this.els.layout.contains(el)) return null;
    if (el.id) return `#${CSS.escape(el.id)}`;
    for (const attr of FOCUS_KEYS) {
      const v = el.getAttribute(attr);
      if (v !== null) return `[${attr}="${CSS.escape(v)}"]${el.dataset.shape ? `[data-shape="${CSS.escape(el.dataset.shape)}"]` : ""}`;
    }
    if (el.dataset.shape) return `#tools [data-shape="${CSS.escape(el.dataset.shape)}"]${el.dataset.slots ? `[data-slots="${CSS.escape(el.dataset.slots)}"]` : ""}`;
    return null;
  }

  // -- keys: 1..4 a die, R/F turn and flip, arrows and Enter on the sheet, Esc back --------
  onKey(e) {
    const { ui } = this;
    if (foreignKey(e) || !this.mine() || this.view.over || document.querySelector("dialog[open]")) return;
    const k = e.key;
    const edge = e.target && e.target.getAttribute && e.target.getAttribute("data-edge");
    if (edge && (k === "Enter" || k === " ") && wandEdge(this)) {
      e.preventDefault(); // a Wand edge chosen from the keyboard (Tab to it, then Enter)
      if (!e.repeat) this.act(edgeAction(this, edge));
      return;
    }
    // A focused button or link handles its own Enter and Space; a held key is one press.
    if ((k === "Enter" || k === " ") && e.target && ["BUTTON", "A", "SUMMARY"].includes(e.target.tagName)) return;
    const slot = this.slotKey(k);
    if (e.repeat && (k === "Enter" || slot)) return;
    if (slot) {
      if (this.dieUsable(slot)) this.pickSource(slot);
    } else if (k === "r" || k === "R") { this.rotate(e.shiftKey ? -1 : 1); } else if (k === "f" || k === "F") { this.flip(); } else if (k === "Escape") {
      if (ui.tool) this.setTool(null); else this.pickSource(null);
    } else if (ui.tool && (ui.tool.kind === "place" || ui.tool.kind === "dig")) {
      if (ARROWS[k]) { e.preventDefault(); moveCursor(this, ...ARROWS[k]); } else if (k === "Enter" && ui.cursor) { e.preventDefault(); const t = actionAt(this, ui.cursor); if (t) this.act(t); }
    }
  }

  // The die slot a digit key names (1 to the row's size), or 0.
  slotKey(k) {
    const n = /^[0-9]$/.test(k) ? Number(k) : 0;
    return n >= 1 && n <= this.rules.row_size ? n : 0;
  }
}

// `options.coach` (optional, the tutorial's: js/tutorial.js) is asked before a die or a
// shape is chosen (`pick(kind, value)`) and before a move is sent (`allow(text, action)`),
// either false to refuse it (the coach says why), told of a refusal (`refused`), and
// called after each drawing (`drawn(page)`). Returns the page.
export function mount(root, live, content, options = {}) {
  loadStylesheet("/static/css/tomb.css");
  const page = new TombPage(root, live, content);
  if (options.coach) {
    page.coach = options.coach;
    const draw = page.render.bind(page);
    page.render = () => { draw(); options.coach.drawn(page); };
  }
  document.addEventListener("keydown", (e) => page.onKey(e));
  window.addEventListener("resize", () => fitToScreen(page.els.layout));
  live.addEventListener("view", () => { if (!page.drawnAlready(live.view)) page.render(); });
  // A click or a key while the other players' steps are shown shows the rest at once; the
  // page is drawn again after the click has done its own work (its target stays in place).
  const skip = () => { if (page.steps.stop()) setTimeout(() => page.render()); };
  document.addEventListener("click", skip, true);
  document.addEventListener("keydown", (e) => { if (!["Shift", "Control", "Alt", "Meta"].includes(e.key)) skip(); }, true);
  live.addEventListener("refused", (e) => page.say(describeError(e.detail), "error"));
  // The first drawing sized at once, so that the map never jumps: measured before it is
  // drawn, while the page is its header and an empty layout (the layout's top is what is
  // above it), which the browser lays out in no time, not after, when measuring would make
  // it lay out the whole page here and once more for the height it sets.
  fitToScreen(page.els.layout);
  page.render();
  return page;
}
