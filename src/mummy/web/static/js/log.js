// The game log in sentences (contracts §1): the last entries of view.log, newest last, each
// as the server put it in words ("Hook at B11: 3 coins and an ooze circled"), with what
// chance showed on a line of its own. The notation stays out of the way: on each entry's
// tooltip, behind a "Show notation" toggle this browser remembers, and on a copy button.
// A page mounts logPanel(view) and may call updateLog(panel, view) on each new view: only
// the new entries are added, so a screen reader announces them (aria-live="polite").
import { h, loadStylesheet } from "./dom.js";

const NOTATION_KEY = "mummy.showNotation";

function remembered() {
  try { return localStorage.getItem(NOTATION_KEY) === "1"; } catch { return false; }
}

function remember(on) {
  try { localStorage.setItem(NOTATION_KEY, on ? "1" : "0"); } catch { /* private mode: not kept */ }
}

// The entries of `view` newer than `prevView` (none for a first view): what a page animates
// step by step when another player's or a bot's moves arrive together.
export function newEntries(prevView, view) {
  if (!prevView || !view || !Array.isArray(view.log)) return [];
  return view.log.filter((e) => e.version > prevView.version);
}

function entryItem(entry, many) {
  const who = many && !entry.sentence.startsWith(entry.name) ? h("span", { class: "log-who" }, `${entry.name}: `) : null;
  return h("li", { class: "log-entry", "data-version": String(entry.version), "data-seat": String(entry.seat), title: entry.text },
    h("span", { class: "log-sentence" }, who, entry.sentence),
    entry.chance ? h("span", { class: "log-chance" }, entry.chance) : null,
    h("code", { class: "log-notation" }, `${entry.version}. ${entry.text}`));
}

// The notation of the entries shown, one a line ("12. Ann: 1:3a.r0@B11"): what a player
// pastes into a bug report or a forum post.
function notationText(list) {
  return [...list.querySelectorAll(".log-entry")].map((li) => {
    const seat = li.dataset.seat;
    const name = li.dataset.name || `seat ${seat}`;
    return `${li.dataset.version}. ${name}: ${li.title}`;
  }).join("\n");
}

async function copy(text) {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = h("textarea", { class: "log-copy-area", readonly: true, "aria-hidden": "true" });
  area.value = text;
  document.body.append(area);
  area.select();
  document.execCommand("copy");
  area.remove();
}

// Add the entries of `view` the panel does not show yet (and drop the oldest past the
// server's count), so that only new sentences are announced.
export function updateLog(panel, view) {
  const list = panel.querySelector(".log-list");
  const log = (view && view.log) || [];
  const many = view && view.seats && view.seats.length > 1;
  const shown = Number(list.lastElementChild ? list.lastElementChild.dataset.version : -1);
  if (log.length && log[0].version > shown + 1) list.replaceChildren(); // a gap: start afresh
  for (const entry of log.filter((e) => e.version > shown)) {
    const item = entryItem(entry, many);
    item.dataset.name = entry.name;
    list.append(item);
  }
  // An undo's replay or a resync may send an older view: keep exactly the server's entries.
  const versions = new Set(log.map((e) => String(e.version)));
  for (const li of [...list.children]) if (!versions.has(li.dataset.version)) li.remove();
  panel.querySelector(".log-empty").hidden = list.children.length > 0;
  scrollToNewest(list);
  return panel;
}

// The newest entry brought into view at the next frame, once however often the log changes
// meanwhile: the browser lays the page out for that frame anyway, while reading the list's
// height now, in the middle of a page's redraw, would make it lay the page out here and
// again after the rest of the redraw (and a panel not yet on the page has no height).
function scrollToNewest(list) {
  if (list.scrolling) return;
  list.scrolling = requestAnimationFrame(() => {
    list.scrolling = 0;
    list.scrollTop = list.scrollHeight;
  });
}

export function logPanel(view, { onNotation } = {}) {
  loadStylesheet("/static/css/log.css");
  const show = onNotation === undefined ? remembered() : Boolean(onNotation);
  const panel = h("section", { class: `panel game-log${show ? " show-notation" : ""}`, "aria-labelledby": "game-log-title" });
  const toggle = h("input", { type: "checkbox", class: "log-toggle", checked: show });
  toggle.addEventListener("change", () => {
    panel.classList.toggle("show-notation", toggle.checked);
    remember(toggle.checked);
  });
  const told = h("span", { class: "log-copied", role: "status" });
  const copyButton = h("button", { type: "button", class: "log-copy", title: "Copy these moves in notation" }, "Copy notation");
  copyButton.addEventListener("click", async () => {
    try {
      await copy(notationText(panel.querySelector(".log-list")));
      told.textContent = "Copied";
    } catch {
      told.textContent = "Copying is not allowed here";
    }
    setTimeout(() => { told.textContent = ""; }, 2000);
  });
  panel.append(
    h("div", { class: "log-head" },
      h("h2", { id: "game-log-title" }, "Game log"),
      h("label", { class: "log-switch" }, toggle, " Show notation"),
      copyButton, told),
    h("p", { class: "log-empty muted" }, "No moves yet."),
    h("ol", { class: "log-list", tabindex: "0", "aria-label": "Game log", "aria-live": "polite", "aria-relevant": "additions" }));
  return updateLog(panel, view);
}
