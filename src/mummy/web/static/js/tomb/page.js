// The Tomb's game page: the state of the page (the chosen die or item, tool, orientation,
// cursor), what the legal actions allow for it, and the drawing of the whole page on
// every change. The sheet (board.js), the controls (tools.js) and the panels (panels.js)
// are drawn by their own modules from this page.
import { describeError, errorText } from "../api.js";
import { rulesOf } from "../constants.js";
import { ARROWS, h, loadStylesheet } from "../dom.js";
import { Sender, actionsOf, foreignKey, seated } from "../session.js";
import { usesDie } from "./actions.js";
import { actionAt, boardSheet, edgeAction, moveCursor, wandEdge } from "./board.js";
import { dieFace, drawSheet } from "./draw.js";
import { backpack, monsterLog, phaseName, playersPanel, resultsPanel, scoreTable, tileTable } from "./panels.js";
import { diceRow, globalButtons, toolButtons } from "./tools.js";

// The attributes that find a focused control again after a redraw.
const FOCUS_KEYS = ["data-action", "data-slot", "data-orient", "data-dig", "data-tool", "data-source", "data-edge"];

class TombPage {
  constructor(root, live, content) {
    this.live = live;
    this.content = content;
    this.rules = rulesOf("tomb", content);
    this.sender = new Sender(live); // first: a new view clears `busy` before it is drawn
    this.ui = {
      slot: null, // selected die slot, or "wand"/"shovel"
      tool: null, // {kind: "place", shape[, slots]} | {kind: "dig", sides} | {kind: "erase"} | {kind: "add"}
      orient: "r0",
      cursor: null, // square under the pointer or the keyboard cursor
    };
    this.view = live.view;
    this.legal = actionsOf(this.view);
    this.sheetLayers = null;
    this.mapNow = null;
    // One live region for the whole page, outside what each view redraws, so that screen
    // readers announce a refusal once and reliably.
    this.els = {
      message: h("p", { class: "message info tomb-message", id: "message", role: "status", "aria-live": "polite" }),
      layout: h("div", { class: "tomb-layout" }),
    };
    root.append(this.els.message, this.els.layout);
  }

  say(text, kind = "info") {
    this.els.message.textContent = text;
    this.els.message.className = `message ${kind} tomb-message`;
  }

  async act(text) {
    if (this.sender.busy) return;
    try {
      await this.sender.send(text); // the update that follows redraws the page
      this.ui.tool = null;
      this.ui.slot = null;
      this.say(`Done: ${text}`, "info");
    } catch (error) {
      this.say(errorText(error), "error");
      this.render();
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
    this.ui.slot = this.ui.slot === source ? null : source;
    this.ui.tool = null;
    this.render();
  }

  chooseShape(shape) {
    this.ui.tool = { kind: "place", shape };
    const list = this.placementsFor(shape);
    const orients = this.orientsFor(shape);
    this.ui.orient = orients.find((o) => list.some((a) => a.orient === o)) || orients[0];
    this.render();
  }

  rotate(step) {
    const { ui } = this;
    if (!ui.tool || ui.tool.kind !== "place") return;
    const s = this.content.shapes[ui.tool.shape];
    const turn = (Number(ui.orient[1]) + step + 4) % 4;
    ui.orient = s.aliases[`${ui.orient[0]}${turn}`];
    this.render();
  }

  flip() {
    const { ui } = this;
    if (!ui.tool || ui.tool.kind !== "place") return;
    const s = this.content.shapes[ui.tool.shape];
    ui.orient = s.aliases[`${ui.orient[0] === "r" ? "f" : "r"}${ui.orient[1]}`];
    this.render();
  }

  // -- drawing ----------------------------------------------------------------------------
  render() {
    const { ui, content, rules } = this;
    const view = this.view = this.live.view;
    this.legal = actionsOf(view);
    const you = this.mine() ? view.you : 0;
    const sheet = view.state.sheets[you];
    const map = content.maps[sheet.map];
    if (ui.slot !== null && !this.sourceActions().length) { ui.slot = null; ui.tool = null; } // used up, or gone
    const playing = this.mine() && !view.over;
    const left = h("div", { class: "tomb-main" },
      h("div", { class: "panel round" },
        h("div", { class: "row" }, h("h2", { id: "round" }, `Round ${view.state.round} of ${rules.rounds}`),
          h("span", { class: "muted" }, "rolled "), ...view.state.dice.map((v) => dieFace(v, { size: 24 })),
          h("span", { class: "badge", id: "phase", "data-phase": sheet.phase }, phaseName(sheet.phase, rules))),
        diceRow(this, sheet),
        playing ? toolButtons(this, sheet) : null,
        playing ? globalButtons(this, sheet) : null),
      h("div", { class: "sheet-wrap panel" }, boardSheet(this, map, sheet)),
      resultsPanel(view));
    const right = h("aside", { class: "tomb-side" }, ...this.panels(sheet, map, you));
    const focusKey = this.focusedKey();
    this.els.layout.replaceChildren(left, right);
    if (focusKey) {
      // Keyboard users keep their place when the page is redrawn (any player's move redraws it).
      const again = this.els.layout.querySelector(focusKey);
      if (again) again.focus();
    }
  }

  // The panels beside the sheet, and the other players' sheets (read only).
  panels(sheet, map, you) {
    const { view, content, rules, ui } = this;
    const defeats = typeof ui.slot === "number" ? this.sourceActions().filter((a) => a.kind === "defeat") : [];
    const others = view.state.sheets.map((s, i) => ({ s, i })).filter(({ i }) => i !== you);
    return [
      h("section", { class: "panel" }, h("h2", {}, "Players"), playersPanel(view, rules)),
      h("section", { class: "panel" }, h("h2", {}, "Backpack"), backpack(sheet, map, rules)),
      h("section", { class: "panel" }, h("h2", {}, "Monster Log"), monsterLog(sheet, map, defeats, (t) => this.act(t))),
      h("section", { class: "panel" }, h("h2", {}, "Tile Table"), tileTable(sheet, content, rules)),
      h("section", { class: "panel", id: "score" }, h("h2", {}, `Score ${sheet.score.total}`), scoreTable(sheet.score),
        sheet.score.achievements.length ? h("p", {}, "Achievements: ", sheet.score.achievements.join(", ")) : null),
      ...others.map(({ s, i }) => h("section", { class: "panel other", "data-other": String(i) },
        h("h2", {}, `${view.seats[i].name}`, " ", h("span", { class: "badge", "data-phase": s.phase }, phaseName(s.phase, rules)), ` ${s.score.total} pts`),
        drawSheet(content.maps[s.map], s, { small: true, label: `${s.name}'s sheet (read only)` }).root)),
    ];
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
    if (foreignKey(e) || !this.mine() || this.view.over) return;
    const k = e.key;
    const edge = e.target && e.target.getAttribute && e.target.getAttribute("data-edge");
    if (edge && (k === "Enter" || k === " ") && wandEdge(this)) {
      e.preventDefault(); // a Wand edge chosen from the keyboard (Tab to it, then Enter)
      if (!e.repeat) this.act(edgeAction(this, edge));
      return;
    }
    // A focused button or link handles its own Enter and Space; a held key is one press.
    if ((k === "Enter" || k === " ") && e.target && ["BUTTON", "A"].includes(e.target.tagName)) return;
    const slot = this.slotKey(k);
    if (e.repeat && (k === "Enter" || slot)) return;
    if (slot) {
      if (this.dieUsable(slot)) this.pickSource(slot);
    } else if (k === "r" || k === "R") { this.rotate(e.shiftKey ? -1 : 1); } else if (k === "f" || k === "F") { this.flip(); } else if (k === "Escape") {
      if (ui.tool) ui.tool = null; else ui.slot = null;
      this.render();
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

export function mount(root, live, content) {
  loadStylesheet("/static/css/tomb.css");
  const page = new TombPage(root, live, content);
  document.addEventListener("keydown", (e) => page.onKey(e));
  live.addEventListener("view", () => page.render());
  live.addEventListener("refused", (e) => page.say(describeError(e.detail), "error"));
  page.render();
}
