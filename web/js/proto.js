// proto.js: the client's side of the croupier protocol (docs/protocol.md).
// One WebSocket to /ws of the page's own server.  request(type, fields)
// sends a message with a fresh `id` and resolves with the reply that carries
// it back as `re` (an `error` reply rejects with {code, message}).  Pushed
// messages (`update`, `your_turn`, `error` without `re`) go to the handlers
// registered with on(type, f).  When the socket drops, it reconnects with a
// growing delay and calls the `reconnect` handlers, which sit again with the
// event number they have seen so the log catches up.  An `update` that
// answers a request also goes to the `update` handlers.
import { parseHash } from './tokens.js';

const VERSION = 1;
const TIMEOUT_MS = 15000;

export class Connection {
  constructor(url) {
    this.fixedUrl = url || null;
    this.url = url || defaultUrl();
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, reject, timer}
    this.handlers = new Map(); // type -> [f]
    this.ws = null;
    this.delay = 250;
    this.closedByUs = false;
    this.connecting = false;
    this.waiters = []; // open() callers waiting for a socket
    this.everOpen = false;
  }

  on(type, f) {
    if (!this.handlers.has(type)) this.handlers.set(type, []);
    this.handlers.get(type).push(f);
  }

  emit(type, msg) {
    for (const f of this.handlers.get(type) || []) f(msg);
  }

  // Resolves once the socket is open (again): a page opened while the
  // server is down waits, saying so, and goes on when it answers.
  open() {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) return Promise.resolve();
    const ready = new Promise((resolve) => this.waiters.push(resolve));
    if (!this.connecting) this.connect();
    return ready;
  }

  connect() {
    this.connecting = true;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener('open', () => {
      if (ws !== this.ws) return;
      this.connecting = false;
      this.delay = 250;
      this.emit('state', 'open');
      // Sit again first (the `reconnect` handlers), then send what waited:
      // the server reads a connection's messages in order, so a move made
      // while the server was away arrives seated.
      if (this.everOpen) this.emit('reconnect', null);
      this.everOpen = true;
      const waiters = this.waiters;
      this.waiters = [];
      for (const f of waiters) f();
    });
    ws.addEventListener('message', (e) => { if (ws === this.ws) this.receive(e.data); });
    ws.addEventListener('close', () => {
      if (ws !== this.ws) return; // left by followPage()
      this.emit('state', 'closed');
      this.failPending();
      if (this.closedByUs) return;
      const wait = this.delay;
      this.delay = Math.min(this.delay * 2, 8000);
      setTimeout(() => this.connect(), wait);
    });
  }

  // On a game's page: when the socket is not the game's (/ws?game=ID), it
  // is closed and the next request opens the game's.  Requests waiting on
  // the old socket are refused as `closed`; the lobby keeps any socket.
  // (A socket given as `url` to the constructor is never changed.)
  followPage() {
    const url = this.fixedUrl || defaultUrl();
    if (url === this.url || parseHash(location.hash).page === 'lobby') return;
    this.url = url;
    const old = this.ws;
    if (!old || old.readyState === WebSocket.CLOSED) return;
    this.ws = null;
    this.connecting = false;
    this.everOpen = false; // the new page sits itself: no `reconnect`
    this.failPending();
    old.close();
  }

  failPending() {
    for (const [, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject({ code: 'closed', message: 'the connection to the server closed' });
    }
    this.pending.clear();
  }

  close() {
    this.closedByUs = true;
    if (this.ws) this.ws.close();
  }

  receive(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      this.emit('error', { code: 'bad_json', message: 'the server sent a message that is not JSON' });
      return;
    }
    if (!msg || typeof msg !== 'object' || typeof msg.type !== 'string') return;
    if (typeof msg.re === 'number' && this.pending.has(msg.re)) {
      const p = this.pending.get(msg.re);
      this.pending.delete(msg.re);
      clearTimeout(p.timer);
      if (msg.type === 'error') {
        p.reject({ code: String(msg.code || 'error'), message: String(msg.message || msg.code || 'error') });
        return;
      }
      p.resolve(msg);
      // A reply may also be news (`sit` is answered by the seat's update).
      if (msg.type !== 'update') return;
    } else if (msg.type !== 'error') {
      // `sit` and `spectate` are answered by an update carrying `re`; a
      // server from before protocol.md said so answers without it, and a
      // request waiting for such a message takes it here.
      for (const [id, p] of this.pending) {
        if (p.match && p.match(msg)) {
          this.pending.delete(id);
          clearTimeout(p.timer);
          p.resolve(msg);
          break;
        }
      }
    }
    this.emit(msg.type, msg);
  }

  // match(msg): optional, a pushed message without `re` that answers too.
  // timeoutMs: how long to wait (a search, `analyse`, may take minutes).
  async request(type, fields = {}, match = null, timeoutMs = TIMEOUT_MS) {
    await this.open();
    const id = this.nextId++;
    const msg = { v: VERSION, type, id, ...fields };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject({ code: 'timeout', message: `the server did not answer "${type}"` });
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer, match });
      this.ws.send(JSON.stringify(msg));
    });
  }
}

// /ws, or /ws?game=ID on a game's page: a proxy in front of several server
// processes sends that socket to the process that plays the game
// (docs/server.md, "Deploying behind HAProxy"); a process that does not
// play the game refuses the upgrade so that the proxy tries another one.
function defaultUrl() {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const game = parseHash(location.hash);
  const query = game.page === 'lobby' ? '' : `?game=${encodeURIComponent(game.game_id)}`;
  return `${scheme}//${location.host}/ws${query}`;
}

// Read-only HTTP endpoints (GET /api/...), for pages that need no socket.
export async function getJson(path) {
  const res = await fetch(path, { cache: 'no-store', credentials: 'omit' });
  if (!res.ok) throw { code: `http_${res.status}`, message: `${path}: HTTP ${res.status}` };
  return res.json();
}

// For request(): the update of one game answers `sit` / `spectate`.
export function updateOf(gameId) {
  return (msg) => msg.type === 'update' && msg.game_id === gameId;
}
