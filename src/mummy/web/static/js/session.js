// What both game pages share once play.js has connected and handed the page over: who
// this page is (a seat or a spectator), the legal actions as data, one action at a time
// sent to the server, the undo button, and the keys a page must leave alone.
import { h } from "./dom.js";

// The seat this page plays, or null for a spectator.
export function seatOf(view) {
  return view.you === undefined ? null : view.you;
}

export function seated(view) {
  return view.you !== null && view.you !== undefined;
}

// The view's legal actions as data (each the action's JSON form and its `text`, in the
// order of `view.legal`): what the page lights up, and the text it sends for each.
export function actionsOf(view) {
  return (view && view.actions) || [];
}

// Sends the page's actions to the server, one at a time: `busy` from the click until the
// view that shows its result has arrived (or it is refused), so that a second click
// cannot race the first. Made before the page listens to the game, so that a new view
// has cleared `busy` before the page draws it.
export class Sender {
  constructor(live) {
    this.live = live;
    this.busy = false;
    this.awaiting = null; // the version that shows the last action's result
    live.addEventListener("view", (e) => this.seen(e.detail));
    live.addEventListener("refused", () => { this.busy = false; });
  }

  seen(view) {
    if (this.busy && this.awaiting !== null && view.version >= this.awaiting) this.busy = false;
  }

  // Resolves with the server's result, rejects with its refusal (not busy any more).
  async send(text) {
    this.busy = true;
    this.awaiting = null;
    const sentOn = this.live.view.version;
    try {
      const result = await this.live.act(text);
      this.awaiting = result && result.version ? result.version : sentOn + 1;
      if (this.live.view.version >= this.awaiting) this.busy = false;
      return result;
    } catch (error) {
      this.busy = false;
      throw error;
    }
  }
}

// Undo takes back the seat's last action, back to the last roll (the view's can_undo).
export function undoButton(view, act) {
  return h("button", { id: "undo", disabled: !view.can_undo, onclick: () => act("undo") }, "↶ Undo");
}

// A key press the game page leaves alone: typing in a field, or a shortcut of the browser.
export function foreignKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return true;
  const target = e.target;
  const tag = target && target.tagName ? target.tagName.toLowerCase() : "";
  return tag === "input" || tag === "textarea" || tag === "select" || !!(target && target.isContentEditable);
}
