// app.js: the page's frame.  It opens the one WebSocket (proto.js), says
// hello to learn the server's games, and routes on the address bar's
// fragment: the lobby (empty), a seat's table (#game=ID&seat=N[&token=T]), a
// spectator's table (#game=ID&watch=1) or the replay viewer
// (#game=ID&replay=1).  It owns the banners, the page title's "your turn"
// mark, the optional browser notification and the global keys.
import { el, fill } from './dom.js';
import { Connection } from './proto.js';
import { parseHash } from './tokens.js';
import { showLobby } from './lobby.js';
import { showGame } from './game.js';
import { showReplay } from './replay.js';

const BASE_TITLE = 'croupier';

const main = document.getElementById('main');
const statusLine = document.getElementById('status');
const connLine = document.getElementById('conn');
const turnBanner = document.getElementById('turn-banner');
const errorBanner = document.getElementById('error-banner');

const listeners = new Map(); // type -> Set(f)
const conn = new Connection();
const app = {
  conn,
  welcome: null,
  gameIds: new Map(), // game id -> game name, from lists
  keyHandler: null,
  listen(type, f) {
    if (!listeners.has(type)) {
      listeners.set(type, new Set());
      conn.on(type, (msg) => { for (const g of [...listeners.get(type)]) g(msg); });
    }
    listeners.get(type).add(f);
    return () => listeners.get(type).delete(f);
  },
  setStatus(text) { statusLine.textContent = text || ''; },
  showError(text) {
    errorBanner.textContent = text || '';
    errorBanner.hidden = !text;
  },
  // Changes the banner only when its words change, so a screen reader
  // announces "your turn" once per turn, not on every update.
  setTurn(on, who) {
    const text = on ? `Your turn${who ? ` (${who})` : ''}: choose an action below.` : '';
    if (turnBanner.textContent !== text) turnBanner.textContent = text;
    turnBanner.hidden = !on;
    const title = on ? `● Your turn · ${BASE_TITLE}` : BASE_TITLE;
    if (document.title !== title) document.title = title;
  },
  // A notification from the browser when the page is not in view (only if
  // the player allowed it; the page's own banner and title always show).
  notifyTurn() {
    if (document.visibilityState === 'visible') return;
    if (typeof Notification !== 'undefined' && Notification.permission === 'granted') {
      try { new Notification('croupier: your turn', { body: 'A game is waiting for your move.', tag: 'croupier-turn' }); } catch { /* not allowed here */ }
    }
  },
  gameTitle(name) {
    const g = ((app.welcome && app.welcome.games) || []).find((x) => x.name === name);
    return g ? g.title || g.name : name || 'game';
  },
  gameOfId(id) { return app.gameIds.get(id); },
  setKeyHandler(f) { app.keyHandler = f; },
  // The decision at hand explained, for `?` (game.js sets it on a seat's
  // table: () => {help, guide} or null; the text is the seat's own help,
  // as the server wrote it into the seat's update).
  helpProvider: null,
  setHelpProvider(f) { app.helpProvider = f; },
  showHelp: () => showKeys(),
};

conn.on('state', (s) => { connLine.textContent = s === 'open' ? '' : 'reconnecting…'; });
conn.on('error', (msg) => { app.showError(String(msg.message || msg.code || 'error')); });

let leave = () => {};
let routing = 0;
async function route() {
  const my = ++routing;
  leave();
  leave = () => {};
  app.showError('');
  app.setTurn(false);
  const r = parseHash(location.hash);
  conn.followPage();
  try {
    if (!app.welcome) app.welcome = await conn.request('hello', {});
    if (r.page !== 'lobby') await learnGame(r.game_id);
    if (my !== routing) return;
    if (r.page === 'lobby') await showLobby(main, app);
    else if (r.page === 'replay') leave = (await showReplay(main, app, r)) || leave;
    else leave = (await showGame(main, app, r)) || leave;
  } catch (err) {
    fill(main, el('section', { class: 'panel' }, el('h1', { text: 'Something went wrong' }),
      el('p', { text: String((err && (err.message || err.code)) || err) }), el('a', { href: '#/', text: 'Back to the lobby' })));
  }
  if (my === routing && document.activeElement === document.body) main.focus({ preventScroll: true });
}

// The game a game id plays (the lists say; an update may too).
async function learnGame(id) {
  if (app.gameIds.has(id)) return;
  const all = await conn.request('list', { status: 'all' });
  for (const g of all.games || []) app.gameIds.set(g.game_id, g.game);
}

document.addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const t = e.target;
  if (t && t.closest && t.closest('input, textarea, select, [contenteditable]')) return;
  if (e.key === '?') {
    showKeys();
    e.preventDefault();
    return;
  }
  if (e.key === 'Escape') {
    const dialog = document.getElementById('keys-dialog');
    if (dialog) dialog.remove();
    return;
  }
  if (app.keyHandler && app.keyHandler(e)) e.preventDefault();
});

// `?`: the decision at hand explained (on a seat's table when it is to
// act: the same text the terminal clients show for `?`), the guide's link
// and the keys.
function showKeys() {
  const old = document.getElementById('keys-dialog');
  if (old) { old.remove(); return; }
  const close = el('button', { type: 'button', text: 'Close', onclick: () => box.remove() });
  const now = app.helpProvider ? app.helpProvider() : null;
  const box = el('section', { id: 'keys-dialog', class: 'panel keys-dialog', role: 'dialog', 'aria-label': now ? 'Help' : 'Keyboard shortcuts' },
    now && now.help ? [el('h2', { text: 'This decision' }), el('p', { class: 'help decision-help', text: now.help })] : null,
    now && !now.help ? el('p', { class: 'small decision-help', text: 'Nothing to decide now: the help explains each of your decisions when it is your turn.' }) : null,
    now && now.guide ? el('p', {}, el('a', { href: now.guide, target: '_blank', rel: 'noopener', text: 'The player\'s guide: the rules in short and the glossary' })) : null,
    el('h2', { text: 'Keys' }),
    el('dl', {},
      el('dt', { text: '1 – 9' }), el('dd', { text: 'the action with that number' }),
      el('dt', { text: 'Enter or d' }), el('dd', { text: 'confirm (done / pass)' }),
      el('dt', { text: 'u' }), el('dd', { text: 'take back the last card chosen' }),
      el('dt', { text: 'l' }), el('dd', { text: 'move to the log' }),
      el('dt', { text: 'Tab' }), el('dd', { text: 'move between controls; Space or Enter presses one' }),
      el('dt', { text: '← →' }), el('dd', { text: 'step in the replay viewer' }),
      el('dt', { text: '?' }), el('dd', { text: 'show or hide this help (the decision explained, and the keys)' }),
      el('dt', { text: 'Esc' }), el('dd', { text: 'close it' })),
    close);
  document.body.appendChild(box);
  close.focus();
}

// Ask for browser notifications only when the player clicks for it.
const notifyButton = el('button', {
  type: 'button', class: 'secondary notify', id: 'btn-notify', text: 'Notify me of my turn',
  onclick: async () => {
    if (typeof Notification === 'undefined') return;
    const p = await Notification.requestPermission();
    notifyButton.hidden = p !== 'default';
  },
});
if (typeof Notification !== 'undefined' && Notification.permission === 'default') {
  document.querySelector('.top-bar').appendChild(notifyButton);
}

window.addEventListener('hashchange', route);
route();
