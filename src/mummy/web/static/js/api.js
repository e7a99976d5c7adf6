// The browser's side of the protocol (docs/server.md): JSON over HTTP, one websocket per
// seat or spectator, seat tokens kept in this browser, and actions that are never lost:
// each carries a client id, and an action without an answer is sent again, with the same
// id, after a reconnect (the server applies a repeated id once).

export class ApiError extends Error {
  constructor(status, error) {
    super(error && error.message ? error.message : `HTTP ${status}`);
    this.status = status;
    this.error = error || {};
  }
}

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    const error = data && data.error ? data.error
      : { code: "http", message: data && data.detail ? JSON.stringify(data.detail) : `HTTP ${response.status}` };
    throw new ApiError(response.status, error);
  }
  return data;
}

// -- seats held in this browser ("my games") -------------------------------------------------
// The seats this browser plays. A seat opened here (an invitation link followed, a game
// made here) is one of them, and stops being an invitation (below) if it was one.
const SEATS_KEY = "mummy.seats";

export const seats = {
  all() {
    try { return JSON.parse(localStorage.getItem(SEATS_KEY) || "[]"); } catch { return []; }
  },
  add(entry) {
    const list = seats.all().filter((s) => s.token !== entry.token);
    list.unshift({ ...entry, added: Date.now() });
    localStorage.setItem(SEATS_KEY, JSON.stringify(list.slice(0, 100)));
    invites.drop((s) => s.token === entry.token);
  },
  tokenFor(gameId) {
    const found = seats.all().find((s) => s.id === gameId);
    return found ? found.token : null;
  },
};

// -- seats made here for other people ----------------------------------------------------------
// A game made here for several people: the other people's seats, whose tokens the server
// gives only to the browser that makes the game. Kept apart from this browser's own seats
// (never played, listed or asked for a rematch as its own), so that the creator can hand a
// link out again, or take a seat back, later (My games). Each: {id, token, game, seat, name}.
const INVITES_KEY = "mummy.invites";

export const invites = {
  all() {
    try { return JSON.parse(localStorage.getItem(INVITES_KEY) || "[]"); } catch { return []; }
  },
  // The seats made here for others in this game, in seat order.
  of(gameId) {
    return invites.all().filter((s) => s && s.id === gameId).sort((a, b) => a.seat - b.seat);
  },
  add(entries) {
    const tokens = new Set(entries.map((e) => e.token));
    const mine = new Set(seats.all().map((s) => s.token));
    const fresh = entries.filter((e) => !mine.has(e.token)).map((e) => ({ ...e, added: Date.now() }));
    const list = [...fresh, ...invites.all().filter((s) => s && !tokens.has(s.token))];
    try { localStorage.setItem(INVITES_KEY, JSON.stringify(list.slice(0, 300))); } catch { /* private mode */ }
  },
  // Forget the invitations for which `which(entry)` holds.
  drop(which) {
    const list = invites.all();
    const kept = list.filter((s) => s && !which(s));
    if (kept.length !== list.length) {
      try { localStorage.setItem(INVITES_KEY, JSON.stringify(kept)); } catch { /* private mode */ }
    }
  },
};

// -- content (maps, shapes, sites): fetched once a page ------------------------------------
// At the versioned address the page's import map gives it (see asset() in dom.js): the
// browser keeps it until the content changes, so a second visit does not download it.
const contentCache = {};
export function content(game) {
  if (!contentCache[game]) contentCache[game] = api(import.meta.resolve(`/api/content/${game}`));
  return contentCache[game];
}

function newClientId() {
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// -- a live game ----------------------------------------------------------------------------
// The game page opens its websocket before its modules load (play.html), so that the
// server's first view is on its way while they do: the first connection of the page's
// live game takes it over, with the messages it has had, if it is to the same address and
// still open or opening. Once only: a reconnection opens a socket of its own.
function takeEarlySocket(url) {
  const early = window.mummyEarlySocket;
  if (!early) return null;
  window.mummyEarlySocket = null;
  const messages = early.messages;
  early.messages = null; // the early listener stops keeping them: this connection reads them now
  if (early.url !== url || early.socket.readyState > WebSocket.OPEN) {
    early.socket.close(1000);
    return null;
  }
  return { socket: early.socket, messages };
}

// Events: "view" (detail: the newest view), "status" (detail: "open" | "connecting" |
// "closed" (reconnecting) | "disconnected" (for good; unanswered actions are rejected)),
// "refused" (detail: the error of a refused action).
export class LiveGame extends EventTarget {
  constructor(gameId, token) {
    super();
    this.id = gameId;
    this.token = token || null;
    this.view = null;
    this.pending = new Map(); // client id -> {text, version, resolve, reject}
    this.socket = null;
    this.closedByUs = false;
    this.retry = 0;
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    const url = `${scheme}://${location.host}/ws/games/${encodeURIComponent(this.id)}${query}`;
    const early = takeEarlySocket(url);
    const socket = early ? early.socket : new WebSocket(url);
    this.socket = socket;
    this._status("connecting");
    socket.addEventListener("open", () => this._status("open"));
    // An early socket's messages so far, and any until they are read: in a task of their own,
    // as a new socket's first messages come, after the caller has set up its listeners.
    let backlog = early ? early.messages : null;
    socket.addEventListener("message", (event) => {
      if (backlog) backlog.push(event);
      else this._receive(JSON.parse(event.data));
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      // 1008: refused for good (a bad token, or this connection broke the rules).
      if (this.closedByUs || event.code === 1008) {
        this._status("disconnected");
        this._failPending({ code: "disconnected", message: event.reason || "disconnected from the game" });
        return;
      }
      this._status("closed");
      // Try again, waiting longer each time; much longer when the game is full (1013).
      // The count starts again only once a state arrives, not when a socket opens.
      const base = event.code === 1013 ? 2000 : 250;
      const delay = Math.min(15000, base * 2 ** this.retry++);
      this.timer = setTimeout(() => this.connect(), delay);
    });
    const firstView = new Promise((resolve, reject) => {
      const first = (e) => { this.removeEventListener("view", first); resolve(e.detail); };
      this.addEventListener("view", first);
      socket.addEventListener("close", (e) => {
        if (!this.view) {
          this.removeEventListener("view", first);
          reject(new ApiError(0, this.lastError || { code: "closed", message: e.reason || "the server closed the connection" }));
        }
      }, { once: true });
    });
    if (early) {
      setTimeout(() => {
        if (this.socket === socket && socket.readyState === WebSocket.OPEN) this._status("open");
        const events = backlog;
        backlog = null;
        for (const event of events) this._receive(JSON.parse(event.data));
      }, 0);
    }
    return firstView;
  }

  _failPending(error) {
    for (const p of this.pending.values()) p.reject(new ApiError(0, error));
    this.pending.clear();
  }

  close() {
    this.closedByUs = true;
    clearTimeout(this.timer);
    if (this.socket) this.socket.close(1000);
  }

  _status(status) {
    this.status = status;
    this.dispatchEvent(new CustomEvent("status", { detail: status }));
  }

  _setView(view) {
    if (!view) return;
    if (this.view && view.version < this.view.version) return; // an older update, late
    this.view = view;
    this.dispatchEvent(new CustomEvent("view", { detail: view }));
  }

  _receive(message) {
    if (message.type === "state") {
      this.retry = 0;
      this._setView(message.state);
      // Actions sent but never answered (the connection dropped): send them again with
      // the same client id; the server answers a repeated id with its first answer.
      for (const [clientId, p] of this.pending) this._send(clientId, p.text, p.version);
    } else if (message.type === "update") {
      this._setView(message.state);
    } else if (message.type === "delta") {
      // What changed since the view of version `base` (a JSON Patch, docs/server.md). A
      // client at another version (a message lost to a reconnect) asks for the whole view.
      if (this.view && this.view.version === message.base) this._setView(applyPatch(this.view, message.patch));
      else if (!this.view || this.view.version < message.version) this._sync();
    } else if (message.type === "result") {
      const p = this.pending.get(message.client_id);
      this.pending.delete(message.client_id);
      if (p) p.resolve(message.result);
    } else if (message.type === "error") {
      this.lastError = message.error;
      if (message.state) this._setView(message.state);
      const p = this.pending.get(message.client_id);
      this.pending.delete(message.client_id);
      if (p) p.reject(new ApiError(409, message.error));
      this.dispatchEvent(new CustomEvent("refused", { detail: message.error }));
    }
  }

  // Ask for the whole view (and the log since this client's version); answered by a "state".
  _sync() {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify({ type: "sync", version: this.view ? this.view.version : 0 }));
    }
  }

  // Messages go out in order, at most RATE a second: the server closes a connection that
  // sends more than 20 a second (docs/server.md), and a script driving this page may try.
  _send(clientId, text, version) {
    this.outbox = this.outbox || [];
    this.sentAt = this.sentAt || [];
    this.outbox.push(JSON.stringify({ type: "action", client_id: clientId, version, action: text }));
    this._pump();
  }

  _pump() {
    const RATE = 15;
    while (this.outbox.length && this.socket && this.socket.readyState === WebSocket.OPEN) {
      const now = performance.now();
      this.sentAt = this.sentAt.filter((t) => now - t < 1000);
      if (this.sentAt.length >= RATE) {
        if (!this.pumping) {
          this.pumping = setTimeout(() => { this.pumping = null; this._pump(); }, 1000 - (now - this.sentAt[0]) + 5);
        }
        return;
      }
      this.sentAt.push(now);
      this.socket.send(this.outbox.shift());
    }
    // Not open: what is waiting goes out again from `pending` once a state arrives.
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) this.outbox = [];
  }

  // Send an action (notation, or "undo"); resolves with the result, rejects with the
  // engine's refusal (error.rule, error.message). The view arrives as an update.
  act(text) {
    const clientId = newClientId();
    const version = this.view ? this.view.version : 0;
    return new Promise((resolve, reject) => {
      this.pending.set(clientId, { text, version, resolve, reject });
      this._send(clientId, text, version);
    });
  }
}

// A JSON Patch (RFC 6902: add, remove, replace at JSON Pointer paths) applied to a view
// without changing it: the objects along each path are copied, the rest shared, so a page
// may still compare the view before with the view after.
export function applyPatch(doc, ops) {
  for (const op of ops) {
    const tokens = op.path.split("/").slice(1).map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
    doc = patched(doc, tokens, op);
  }
  return doc;
}

function patched(node, tokens, op) {
  if (!tokens.length) return op.value;
  const [head, ...rest] = tokens;
  if (Array.isArray(node)) {
    const copy = node.slice();
    if (!rest.length && op.op === "add") copy.splice(head === "-" ? copy.length : Number(head), 0, op.value);
    else if (!rest.length && op.op === "remove") copy.splice(Number(head), 1);
    else copy[Number(head)] = patched(copy[Number(head)], rest, op);
    return copy;
  }
  const copy = { ...node };
  if (!rest.length && op.op === "remove") delete copy[head];
  else copy[head] = rest.length ? patched(copy[head], rest, op) : op.value;
  return copy;
}

// -- errors as lines for the pages ----------------------------------------------------------
// A message line that says what happened (and the rule, when the engine refused).
export function describeError(error) {
  if (!error) return "";
  const rule = error.rule ? ` (${error.rule})` : "";
  return `${error.message}${rule && !String(error.message).includes(error.rule) ? rule : ""}`;
}

// Any failure as a line for the page: the server's error with its rule, a network
// failure (fetch throws a TypeError), or anything else.
export function errorText(error) {
  if (error instanceof ApiError) return describeError(error.error);
  if (error instanceof TypeError) return "The server cannot be reached; check your connection and try again.";
  return (error && error.message) || String(error);
}

// -- preview of an action (contracts §2) -------------------------------------------------------
// What `actionText` would do for the seat holding `token`, before it is made: {version,
// action, sentence, warnings: [{code, rule, message}], uses_after, by_value?}. Nothing
// changes on the server; an illegal action throws an ApiError with the engine's rule (422).
export async function preview(gameId, token, actionText) {
  const query = new URLSearchParams({ action: actionText });
  return api(`/api/games/${encodeURIComponent(gameId)}/preview?${query}`, { token });
}
