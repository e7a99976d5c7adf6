// Treasure's game page: the page's state (the dice tray and its holds, the chosen pile and
// its orientation, the square pointed at or tapped, the message, the other players' moves
// being shown), what the player's clicks, taps and keys do with it, and the whole table
// drawn again (table.js) on every change.
//
// Keys: 1–5 hold or release die N; Space or R roll / reroll the dice that are not held
// (R turns the tile instead while one is being placed); Esc puts a chosen tile back;
// arrows move over your site while placing, Enter places. On a touch screen a tap on a
// square shows the tile there, and a second tap (or the Place button) puts it there.
import { describeError, errorText } from "../api.js";
import { rulesOf } from "../constants.js";
import { ARROWS, h, loadStylesheet, parseSquare, squareName } from "../dom.js";
import { logPanel, updateLog } from "../log.js";
import { Sender, actionsOf, foreignKey, seatOf } from "../session.js";
import { treasureArt } from "./art.js";
import { readLegal, rollAction, textOf } from "./legal.js";
import { rollLetters, stepsBetween, tilesAhead } from "./moves.js";
import { footprint, orientOf, placementFault } from "./site.js";
import { resultLines, seatName, turnLine } from "./status.js";
import { SYMBOLS } from "./symbols.js";
import { drawTable, emptyUi } from "./table.js";
import { askHint, hintable } from "./hint.js";

//: How long each of the other players' steps is shown (ms).
const STEP_MS = 700;

// A tap, not a click of a mouse: it only shows where the tile would go.
function isTap(event) {
  if (event && event.pointerType) return event.pointerType === "touch" || event.pointerType === "pen";
  return !!(event && event.detail !== 0) && window.matchMedia("(hover: none)").matches;
}

class TreasurePage {
  constructor(root, live, content) {
    this.root = root;
    this.live = live;
    this.content = content;
    this.rules = rulesOf("treasure", content);
    this.sender = new Sender(live); // first: a new view clears `busy` before it is drawn
    // The table is drawn again on every change; what happens is also told to screen
    // readers through one live region that stays put.
    this.announcer = h("p", { class: "sr-only", role: "status", "aria-live": "polite", "data-testid": "announce" });
    this.host = h("div", { class: "treasure-host" });
    root.replaceChildren(this.announcer, this.host);
    this.ui = emptyUi();
    this.wantFocus = null; // a control that was disabled by a redraw: focus it again when it is back
    this.prev = null; // the last view drawn: to keep holds across a reroll and to tell what others did
    this.parsed = { view: null, legal: null };
    this.steps = []; // the other players' moves still to show (moves.js)
    this.timer = null;
    this.log = null; // the game log in sentences (js/log.js): one panel, kept across redraws
    this.handlers = {
      toggle: (i) => this.toggle(i),
      roll: () => this.roll(),
      send: (text) => this.send(text),
      choose: (pile) => this.choose(pile),
      rotate: () => this.rotate(),
      suggest: (reroll) => this.suggest(reroll),
      place: (square, event) => this.place(square, event),
      confirm: () => { if (this.ui.armed) this.place(this.ui.armed); },
      hover: (square) => { this.ui.hover = square; this.preview(); },
      arrow: (event, square) => this.arrow(event, square),
      hint: () => askHint(this),
    };
  }

  announce(text) { this.announcer.textContent = text; }

  say(text, kind = "info") {
    this.ui.message = text ? { text, kind } : null;
    if (text) this.announce(text);
  }

  // The legal actions read once per view: a draw, a hover and a click all ask for them.
  legalOf(view) {
    if (this.parsed.view !== view) this.parsed = { view, legal: readLegal(view.over ? [] : actionsOf(view)) };
    return this.parsed.legal;
  }

  model() {
    const view = this.live.view;
    const you = seatOf(view);
    return { state: view.state, content: this.content, rules: this.rules, names: view.seats.map((s) => s.name),
      bots: view.seats.map((s) => s.bot), you, legal: this.legalOf(view), interactive: you !== null && !view.over,
      busy: this.sender.busy, ui: this.ui, handlers: this.handlers, result: view.result || null, version: view.version,
      log: this.log, hint: hintable(view) && view.state.current === you
        ? { count: view.config.hints || 0, asking: !!this.hinting, confirming: !!this.confirming } : null };
  }

  send(text) {
    if (this.sender.busy || !this.live.view) return;
    this.finishSteps(); // the player moves on: the other players' steps are all shown at once
    this.say("");
    const sending = this.sender.send(text);
    this.draw();
    sending.then(() => { if (!this.sender.busy) this.draw(); }, (error) => {
      this.say(errorText(error), "error");
      this.draw();
    });
  }

  // -- what the clicks and keys do ----------------------------------------------------------
  toggle(i) {
    const { ui } = this;
    const st = this.live.view.state;
    if (this.sender.busy || this.live.view.you !== st.current || st.over || st.rolls === 0 || st.rolls >= this.rules.rolls) return;
    ui.tray.toggle(i);
    this.draw();
  }

  roll() {
    const { ui, rules } = this;
    const m = this.model();
    const st = m.state;
    if (!m.interactive || this.sender.busy) return;
    if (st.current !== m.you) { this.say(`R2.3: it is ${seatName(m, st.current)}'s turn; play goes in seat order`, "error"); this.draw(); return; }
    const r = rollAction(m);
    if (r.legal) {
      if (st.rolls > 0) ui.tray.sending(st); // the held dice stay where they are
      this.send(r.text);
      return;
    }
    if (st.rolls >= rules.rolls) this.say(`R3.1: at most ${rules.rolls} rolls a turn`, "error");
    else if (!r.text) this.say("R3.1: a reroll names at least one die: release a held die first", "error");
    else this.say(`${r.text} is not possible now`, "error");
    this.draw();
  }

  choose(pile) {
    const { ui } = this;
    let target = null;
    if (pile === null || ui.pile === pile) {
      if (ui.pile) target = `take-${ui.pile}`;
      ui.pile = null; ui.hover = null; ui.armed = null;
    } else {
      const places = this.model().legal.takes.get(pile);
      if (!places) return;
      ui.pile = pile;
      ui.hover = null; ui.armed = null;
      if (!places[ui.orient].size && places[ui.orient === "h" ? "v" : "h"].size) ui.orient = ui.orient === "h" ? "v" : "h";
      const first = [...places[ui.orient].keys()][0];
      if (first) target = `sq-${first}`;
    }
    this.say("");
    this.draw(target);
  }

  rotate() {
    const { ui } = this;
    if (!ui.pile) return;
    const top = this.live.view.state.piles.find((p) => p.pile === ui.pile).top;
    if (top.rows === top.cols) return;
    ui.orient = ui.orient === "h" ? "v" : "h";
    ui.armed = null;
    this.draw();
  }

  suggest(reroll) {
    const st = this.live.view.state;
    const out = [...reroll];
    const tray = this.ui.tray;
    tray.held = new Set();
    tray.shown(st).forEach((letter, i) => {
      const k = out.indexOf(letter);
      if (k >= 0) out.splice(k, 1); else tray.held.add(i);
    });
    this.draw();
  }

  place(square, event = null) {
    const { ui } = this;
    const m = this.model();
    if (!ui.pile || this.sender.busy) return;
    if (isTap(event) && ui.armed !== square) { // a first tap shows the tile there
      ui.armed = square; ui.hover = square;
      this.draw(`sq-${square}`);
      return;
    }
    const places = m.legal.takes.get(ui.pile);
    const top = m.state.piles.find((x) => x.pile === ui.pile).top;
    const orient = orientOf(top, ui.orient);
    const listed = places && places[orient].get(square);
    const text = textOf(listed, { kind: "take", pile: ui.pile, square, orient });
    if (listed) { this.send(text); return; }
    const seat = m.state.seats[m.you];
    const fault = placementFault(top, orient, square, this.content.sites[seat.site], seat.covered);
    if (fault) { this.say(fault.message, "error"); this.draw(); return; }
    this.send(text); // not listed, but no fault seen here: the engine says why
  }

  arrow(event, square) {
    const step = ARROWS[event.key];
    if (!step) return;
    event.preventDefault();
    const site = this.content.sites[this.live.view.state.seats[this.live.view.you].site];
    let [x, y] = parseSquare(square);
    for (;;) {
      x += step[0]; y += step[1];
      if (x < 0 || y < 0 || x >= site.cols || y >= site.rows) return;
      const next = this.root.querySelector(`#my-site [data-square="${squareName(x, y)}"]`);
      if (next) { next.focus(); return; }
    }
  }

  onKey(e) {
    const { ui } = this;
    if (!this.live.view || foreignKey(e)) return;
    if (e.repeat) return; // a held key is one press: holding Space must not use up every roll
    const tag = e.target && e.target.tagName ? e.target.tagName.toLowerCase() : "";
    const onControl = tag === "button" || tag === "a";
    const die = /^[0-9]$/.test(e.key) ? Number(e.key) : 0;
    if (die >= 1 && die <= this.rules.dice) {
      const el = this.root.querySelector(`[data-die="${die - 1}"]`);
      if (el && !el.disabled) { this.toggle(die - 1); e.preventDefault(); }
    } else if (e.key === "r" || e.key === "R") {
      if (ui.pile) this.rotate(); else this.roll();
      e.preventDefault();
    } else if (e.key === " " && !onControl) {
      this.roll();
      e.preventDefault();
    } else if (e.key === "Escape" && ui.pile) {
      this.choose(null);
      e.preventDefault();
    }
  }

  // -- drawing ------------------------------------------------------------------------------
  // The tile under the pointer (or the focused square), drawn over the site: hatched
  // where it fits, crossed where it does not (never colour alone).
  preview() {
    const { ui } = this;
    const grid = this.root.querySelector("#my-site .site-grid");
    if (!grid) return;
    grid.querySelectorAll(".ghost").forEach((g) => g.remove());
    const at = ui.hover || ui.armed;
    if (!ui.pile || !at || !this.live.view) return;
    const m = this.model();
    const p = m.state.piles.find((x) => x.pile === ui.pile);
    if (!p || !p.top) return;
    const orient = orientOf(p.top, ui.orient);
    const places = m.legal.takes.get(ui.pile);
    const ok = !!places && places[orient].has(at);
    const site = this.content.sites[m.state.seats[m.you].site];
    const f = footprint(p.top.rows, p.top.cols, orient, at);
    const x1 = Math.min(site.cols, f.x0 + f.wid);
    const y1 = Math.min(site.rows, f.y0 + f.hgt);
    const ghost = h("div", { class: `ghost ${ok ? "ok" : "bad"}${at === ui.armed ? " armed" : ""}`, "data-testid": "ghost",
      "aria-hidden": "true" }, ok ? treasureArt(p.pile, p.top.rows, p.top.cols, { orient }) : h("span", {}, "✕"));
    ghost.style.gridColumn = `${f.x0 + 1} / ${x1 + 1}`;
    ghost.style.gridRow = `${f.y0 + 1} / ${y1 + 1}`;
    grid.append(ghost);
  }

  // Light up where the chosen tile can go, and let the site take one tab stop.
  lightPlaces(m, key) {
    const { ui, root } = this;
    const places = m.legal.takes.get(ui.pile);
    const top = m.state.piles.find((x) => x.pile === ui.pile).top;
    const orient = orientOf(top, ui.orient);
    let firstLegal = null;
    for (const sq of root.querySelectorAll("#my-site [data-square]")) {
      if (places && places[orient].has(sq.dataset.square)) {
        sq.classList.add("legal");
        sq.setAttribute("aria-label", `${sq.dataset.square}: ${ui.pile} fits here`);
        firstLegal = firstLegal || sq;
      }
    }
    const stop = (key && root.querySelector(`#my-site [data-focus="${key}"]`)) || firstLegal
      || root.querySelector("#my-site [data-square]");
    if (stop) stop.tabIndex = 0;
  }

  // Draw the whole table again. Focus stays on the same control (by its data-focus key),
  // or moves to `target` when the page chose where it goes next.
  draw(target = null) {
    const { root } = this;
    if (!this.live.view) return;
    const active = document.activeElement;
    const inside = active && root.contains(active) && active !== root;
    const idle = !active || active === document.body;
    const key = target || (inside && active.dataset ? active.dataset.focus : null) || (idle ? this.wantFocus : null);
    const m = this.model();
    drawTable(this.host, m);
    // A roll tumbles and a tile drops in once: a later redraw (a hold, a hover) shows them still.
    this.ui.tray.rolled = new Set();
    this.ui.rolling = false;
    this.ui.arriving = new Set();
    if (this.ui.pile) this.lightPlaces(m, key);
    if (key) {
      const el = root.querySelector(`[data-focus="${key}"]`);
      if (el && !el.disabled) {
        el.focus({ preventScroll: !target });
        this.wantFocus = null;
      } else {
        this.wantFocus = key;
      }
    }
    this.preview();
  }

  // What changed since the last view: keep every die in its place across a reroll (tray.js),
  // drop a choice that is no longer legal, and show what the other players did, step by step.
  onView(view) {
    const { ui } = this;
    const st = view.state;
    const prev = this.prev;
    ui.tray.update(prev ? prev.state : null, st, this.rules.symbols);
    const legal = this.legalOf(view);
    if (ui.pile && !legal.takes.has(ui.pile)) { ui.pile = null; ui.hover = null; ui.armed = null; }
    const moved = !prev || prev.version !== view.version;
    if (moved) this.confirming = false; // a hint's second click is for the position it was asked in
    const steps = moved ? stepsBetween(prev, view, seatOf(view)) : [];
    this.prev = view;
    // A bot's turn may come in several views: their steps join the queue, none is cut short.
    this.steps.push(...steps);
    const upTo = ui.step ? ui.step.version : this.steps.length ? this.steps[0].version : null;
    this.showLog(view, upTo);
    if (!ui.step && this.steps.length) {
      this.nextStep();
      return;
    }
    if (ui.step) ui.later = tilesAhead(this.steps);
    this.draw();
    if (moved && !ui.step) this.tell(view);
  }

  // Say the new state to screen readers: the result, or whose turn and the dice.
  tell(view) {
    const m = this.model();
    const st = view.state;
    const res = view.over ? resultLines(m) : null;
    const dice = st.dice ? ` Dice: ${this.ui.tray.shown(st).map((l) => `${SYMBOLS[l].name} ${l}`).join(", ")}.` : "";
    this.announce(res ? `${res.headline} ${res.mine || ""}` : `${turnLine(m)}${dice}`);
  }

  // Show the next of the other players' steps: its sentence, the dice tumbling for a roll,
  // its tile dropping onto the site for a take; the tiles of later steps wait hidden.
  nextStep() {
    const { ui } = this;
    const step = this.steps.shift();
    if (!step) { this.finishSteps(); return; }
    // A roll's dice (its log entry's faces) keep their places from the same player's last
    // roll; a take or a pass after it shows those dice still, without tumbling.
    const before = ui.step && ui.step.seat === step.seat && ui.step.letters ? ui.step.letters : [];
    if (step.dice) Object.assign(step, rollLetters(before, step.dice, this.rules.symbols));
    else if (before.length) Object.assign(step, { letters: before, rolled: new Set() });
    ui.step = step;
    ui.rolling = step.kind === "roll";
    ui.arriving = new Set(step.tile ? [step.tile] : []);
    ui.later = tilesAhead(this.steps);
    this.showLog(this.live.view, step.version);
    this.draw();
    this.announce(step.text);
    this.timer = setTimeout(() => this.nextStep(), STEP_MS);
  }

  // The log's sentences up to `upTo` (the step being shown; null: all of them).
  showLog(view, upTo = null) {
    if (!view || !Array.isArray(view.log)) return;
    const shown = upTo === null || upTo === undefined ? view : { ...view, log: view.log.filter((e) => e.version <= upTo) };
    if (this.log) updateLog(this.log, shown); else this.log = logPanel(shown);
  }

  // Every step shown: the table as the view has it.
  finishSteps() {
    const { ui } = this;
    const showing = !!ui.step;
    clearTimeout(this.timer);
    this.timer = null;
    this.steps = [];
    Object.assign(ui, { step: null, rolling: false, arriving: new Set(), later: new Set() });
    if (showing && this.live.view) { this.showLog(this.live.view); this.draw(); this.tell(this.live.view); }
  }
}

export function mount(root, live, content) {
  loadStylesheet("/static/css/treasure.css");
  const page = new TreasurePage(root, live, content);
  live.addEventListener("view", (e) => page.onView(e.detail));
  live.addEventListener("refused", (e) => {
    page.say(describeError(e.detail), "error");
    page.draw();
  });
  root.addEventListener("focusin", (e) => { if (e.target.dataset && e.target.dataset.focus) page.wantFocus = null; });
  document.addEventListener("keydown", (e) => page.onKey(e));
  page.onView(live.view);
}
