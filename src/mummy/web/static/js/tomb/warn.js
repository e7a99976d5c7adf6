// Warnings before a harmful move: the server's preview of an action (docs/server.md,
// GET /api/games/{id}/preview) says what it would cost ("sealed": no open opening left,
// "no_use": a coin or a bought die that leaves the die without a use, "unused_dice": a round
// ended with dice that had a use) and, for a ±1 coin, how many uses the adjusted die has.
// The page asks before it sends such an action and, when there is a warning, lets the
// player confirm or cancel in a small dialog. A server without the preview (or any failure
// to ask) only skips the warning: the move itself is never blocked by it.
import * as API from "../api.js";
import { h } from "../dom.js";

// The kinds of action worth a question: what can seal the dungeon, waste a coin or a die
// (a placement can leave the other dice without a use), or give up the items' last uses.
const CHECKED = new Set(["place", "dig", "erase", "add", "defeat", "up", "down", "discard", "buy", "choose", "end"]);

export class Previews {
  constructor(live) {
    this.live = live;
    this.cache = new Map(); // "version|text" -> Promise of the preview, or of null
  }

  // Should `action` (a listed action, as data) be previewed before it is sent?
  static checked(action) {
    return !!action && CHECKED.has(action.kind);
  }

  // The preview of `text` at the live view's version, or null (no preview on this server,
  // an illegal action, or no connection): asked once per version, again after a failure.
  get(text) {
    const { live } = this;
    if (typeof API.preview !== "function" || !live.token || !live.view) return Promise.resolve(null);
    const key = `${live.view.version}|${text}`;
    if (!this.cache.has(key)) {
      if (this.cache.size > 200) this.cache.clear();
      // A failed ask (a rate limit, a dropped connection) is not kept: the click asks again,
      // so that a place pointed at during a hiccup still gets its question.
      const asked = API.preview(live.id, live.token, text).catch(() => {
        if (this.cache.get(key) === asked) this.cache.delete(key);
        return null;
      });
      this.cache.set(key, asked);
    }
    return this.cache.get(key);
  }

  // The preview if it has already arrived (for drawing), else undefined.
  peek(text) {
    const live = this.live;
    const p = live.view && this.cache.get(`${live.view.version}|${text}`);
    return p && p.settled ? p.value : undefined;
  }

  // Ask, and note the answer on the promise so that peek() can read it without waiting
  // (noted by one handler, however often the preview is asked while on its way).
  fetch(text) {
    const p = this.get(text);
    if (!("settled" in p)) {
      p.settled = false;
      p.then((v) => { p.settled = true; p.value = v; });
    }
    return p;
  }

  // Ask, and call `arrived(answer)` when it comes: once per preview, however many times the
  // page is drawn (and asks again) while it is on its way, so that ten drawings waiting
  // for one answer draw once more, not ten times.
  fetchOnce(text, arrived) {
    const p = this.fetch(text);
    if (!p.told) {
      p.told = true;
      p.then(arrived);
    }
    return p;
  }

  // The counts of uses each die value would have now ({"1": n, ..., "6": n}), from any
  // preview at this version that has them (a ±1 coin's or a chosen die's), or null.
  byValue() {
    const version = this.live.view && this.live.view.version;
    for (const [key, p] of this.cache) {
      if (key.startsWith(`${version}|`) && p.settled && p.value && p.value.by_value) return p.value.by_value;
    }
    return null;
  }
}

// A small modal dialog with the warnings: resolves true for Confirm, false for Cancel or
// Esc. It is a <dialog>: focus moves into it (to Cancel, the safe choice) and comes back.
export function confirmWarnings(warnings, { title = "Are you sure?", confirm = "Do it anyway" } = {}) {
  return new Promise((resolve) => {
    const before = document.activeElement;
    const cancel = h("button", { type: "button", id: "warn-cancel", autofocus: true }, "Cancel");
    const ok = h("button", { type: "button", id: "warn-confirm", class: "primary" }, confirm);
    const dialog = h("dialog", { class: "tomb-warning", id: "warning", "aria-labelledby": "warning-title" },
      h("h2", { id: "warning-title" }, `⚠ ${title}`),
      h("ul", {}, ...warnings.map((w) => h("li", { "data-code": w.code }, w.message, w.rule ? h("span", { class: "muted" }, ` (${w.rule})`) : null))),
      h("div", { class: "row" }, ok, cancel));
    const close = (answer) => {
      dialog.close();
      dialog.remove();
      if (before && before.focus) before.focus();
      resolve(answer);
    };
    dialog.addEventListener("cancel", (e) => { e.preventDefault(); close(false); }); // Esc
    cancel.addEventListener("click", () => close(false));
    ok.addEventListener("click", () => close(true));
    document.body.append(dialog);
    dialog.showModal();
    cancel.focus();
  });
}
