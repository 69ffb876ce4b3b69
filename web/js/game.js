// game.js: the table page of one game, for a seat (with its token) or a
// spectator.  It sits the connection (`sit` / `spectate`), keeps the seat's
// latest update and its log (events by sequence number), and hands both to
// the game's view: web/games/<game>.js when the server's game has one, the
// generic table otherwise.  It also owns what every game shares: the turn
// banner and page title, the clocks, Resign / Hand to a bot, the Hint
// button (the server's `hint`: what the game's strongest tier would play
// here, at a table that allows hints), the scoreboard of a finished game
// and the keyboard shortcuts of the controls.
import { el, fill } from './dom.js';
import { loadToken, saveToken, forgetToken, gameHash } from './tokens.js';
import { updateOf } from './proto.js';
import * as generic from './generic-view.js';
import { amountProblem, amountText } from './actions.js';

const NAME_RE = /^[a-z0-9][a-z0-9-]{0,31}$/;

// What each seat earned, from the server's `achievements` (per seat, a list
// of {key, title, words}: the update's result, the replay's last step), as a
// section with one item a seat and achievement; null when there is none.
export function achievementsList(per, n, seatName) {
  const list = Array.isArray(per) ? per : [];
  const items = [];
  for (let i = 0; i < n; i++) {
    for (const a of Array.isArray(list[i]) ? list[i] : []) {
      if (!a || typeof a.key !== 'string') continue;
      items.push(el('li', { 'data-achievement': a.key },
        el('strong', { text: `${seatName(i)}: ${a.title || a.key}` }), a.words ? ` — ${a.words}` : ''));
    }
  }
  if (!items.length) return null;
  return el('section', { class: 'achievements', 'aria-label': 'Achievements' },
    el('h3', { text: 'Achievements' }), el('ul', {}, items));
}

// A game's own stylesheet, web/games/<game>.css, added to the page once;
// resolves when it has loaded (or failed to), so the view draws styled.
function gameStylesheet(name) {
  const href = new URL(`../games/${name}.css`, import.meta.url).href;
  if ([...document.querySelectorAll('link[rel="stylesheet"]')].some((l) => l.href === href)) {
    return Promise.resolve();
  }
  const link = el('link', { rel: 'stylesheet', href });
  const loaded = new Promise((resolve) => {
    link.addEventListener('load', resolve, { once: true });
    link.addEventListener('error', resolve, { once: true });
  });
  document.head.append(link);
  return loaded;
}

// The view module for a game name, or the generic table.  A module that
// exports `stylesheet = true` has its rules in web/games/<game>.css, loaded
// before the view is handed out.
export async function viewFor(name) {
  if (!NAME_RE.test(String(name))) return generic;
  try {
    const mod = await import(`../games/${name}.js`);
    if (typeof mod.createView !== 'function') return generic;
    if (mod.stylesheet === true) await gameStylesheet(name);
    return mod;
  } catch {
    return generic;
  }
}

export async function showGame(main, app, route) {
  const token = route.watch ? null : (route.token || loadToken(route.game_id, route.seat));
  if (route.token && route.seat !== null) {
    // An invite link: take the token out of the address bar at once; it is
    // kept in this browser once the server has seated us with it.
    history.replaceState(null, '', gameHash(route.game_id, route.seat));
  }
  if (!route.watch && !token) {
    fill(main, el('section', { class: 'panel' }, el('h1', { text: 'No seat here' }),
      el('p', { text: 'This browser holds no token for that seat. Open the invite link you were sent, or watch the game.' }),
      el('a', { href: `#game=${route.game_id}&watch=1`, text: 'Watch the game' })));
    return () => {};
  }

  const head = el('section', { class: 'panel game-head' });
  const board = el('div', { class: 'board-root' });
  const score = el('section', { class: 'panel scoreboard', hidden: true, 'aria-labelledby': 'score-h' });
  fill(main, head, score, board);

  const state = {
    update: null, log: [], seen: 0, view: null, viewGame: null, busy: false, clockAt: 0, left: false,
    // the hint for one decision ({decision, text}); noHints: the table refused them
    hint: null, noHints: '',
  };
  const log = state.log;

  function seatName(i, fallback) {
    const seats = (state.update && state.update.seats) || [];
    const s = seats.find((x) => x.seat === i);
    const base = i >= 0 ? `P${i}` : String(fallback);
    if (!s) return base;
    return s.kind === 'bot' ? `${base} (${s.spec})` : base;
  }

  async function submit(action, amount) {
    const u = state.update;
    if (!u || !u.your_turn || state.busy) return;
    // An amount of the action's range that the menu does not list goes as
    // the action's notation with that amount (actions.js, amountText).  A
    // refused amount is said and the controls stay free: nothing was sent.
    const msg = { decision: u.decision, action: action.id };
    if (amount !== undefined) {
      const text = amountText(action, amount);
      if (text === null) {
        app.showError(`The amount must be ${amountProblem(action, amount)}.`);
        return;
      }
      delete msg.action;
      msg.text = text;
    }
    state.busy = true;
    markBusy(true);
    try {
      await app.conn.request('act', msg);
      app.showError('');
    } catch (err) {
      state.busy = false;
      markBusy(false);
      if (err.code !== 'stale') app.showError(`${err.message || err.code}`);
    }
  }
  // While a move is on its way the controls say so (aria-disabled, not
  // `disabled`, which would drop a keyboard player's focus) and submit()
  // ignores them.
  function markBusy(on) {
    for (const b of board.querySelectorAll('button.action, button.card')) {
      if (on) b.setAttribute('aria-disabled', 'true');
      else b.removeAttribute('aria-disabled');
    }
  }

  const ctx = { submit, seatName };

  // Adds an update's events to the log.  An update carries at most the last
  // events the server keeps per message, so a gap (a first visit to a long
  // game, a reconnection) is filled from `history`.
  function addEvents(events) {
    for (const e of events || []) {
      if (!e || typeof e.seq !== 'number') continue;
      if (e.seq < state.seen) continue; // already shown (a catch-up overlaps)
      if (e.seq > state.seen) fillGap(state.seen, e.seq);
      log.push(e);
      state.seen = e.seq + 1;
    }
  }

  async function fillGap(from, to) {
    const got = [];
    try {
      for (let since = from; since < to;) {
        const page = await app.conn.request('history', { since });
        const list = (Array.isArray(page.events) ? page.events : [])
          .filter((e) => e && typeof e.seq === 'number' && e.seq >= since && e.seq < to);
        if (!list.length) break;
        got.push(...list);
        since = list[list.length - 1].seq + 1;
      }
    } catch {
      return; // the log keeps its gap; the next visit fills it
    }
    const have = new Set(log.map((e) => e.seq));
    const merged = log.concat(got.filter((e) => !have.has(e.seq))).sort((x, y) => x.seq - y.seq);
    log.splice(0, log.length, ...merged);
    if (state.update) render(state.update);
  }

  function drawHead(u) {
    const title = app.gameTitle(u.observation && u.game ? u.game : state.viewGame);
    const who = u.seat === null || u.seat === undefined ? 'watching' : `you are P${u.seat}`;
    const clock = drawClock(u);
    const controls = [];
    if (u.seat !== null && u.seat !== undefined && !u.over) {
      controls.push(el('button', {
        type: 'button', class: 'secondary', id: 'btn-bot', text: 'Hand my seat to a bot',
        onclick: async () => {
          if (!window.confirm('A bot will play your seat for the rest of the game. Continue?')) return;
          try { await app.conn.request('bot', { spec: 'heuristic' }); } catch (err) { app.showError(err.message || err.code); }
        },
      }));
      controls.push(el('button', {
        type: 'button', class: 'secondary', id: 'btn-resign', text: 'Resign',
        onclick: async () => {
          if (!window.confirm('Resign? The game ends and you rank last.')) return;
          try { await app.conn.request('resign', {}); } catch (err) { app.showError(err.message || err.code); }
        },
      }));
    }
    // A hint: asked of the server for this decision only, shown until it is
    // taken; offered where the table allows hints (`hints`: one human, or all agreed).
    if (u.your_turn && u.hints && !state.noHints) {
      controls.push(el('button', {
        type: 'button', class: 'secondary', id: 'btn-hint', text: 'Hint',
        'aria-label': 'Hint: what the strongest bot would play here',
        onclick: () => askHint(u),
      }));
    }
    const hintText = state.noHints
      || (state.hint && u.your_turn && state.hint.decision === u.decision ? state.hint.text : '');
    if (u.over) controls.push(el('a', { href: `#game=${route.game_id}&replay=1`, id: 'link-replay', text: 'Replay this game' }));
    // `?`: the decision at hand explained (app.js, showKeys).
    if (u.seat !== null && u.seat !== undefined && !u.over) {
      controls.push(el('button', { type: 'button', class: 'secondary', id: 'btn-help', 'aria-keyshortcuts': '?', text: '? Help', onclick: () => app.showHelp() }));
    }
    // The game's player's guide (its rules in short and the glossary), as the server hands it out.
    const gameName = u.game || state.viewGame;
    if (gameName) controls.push(el('a', { href: `/api/games/${encodeURIComponent(gameName)}/guide`, id: 'link-guide', target: '_blank', rel: 'noopener', text: 'Guide and rules' }));
    // The same seat as plain text and controls (any game), or back to the game's own table.
    const here = route.watch ? `#game=${route.game_id}&watch=1` : gameHash(route.game_id, route.seat);
    controls.push(route.text
      ? el('a', { href: here, id: 'link-view', text: 'Game table' })
      : el('a', { href: `${here}&view=text`, id: 'link-view', text: 'Text table' }));
    fill(head,
      el('h1', { text: `${title} · ${who}` }),
      el('p', { class: 'small' }, `Game ${route.game_id.slice(0, 8)} · `,
        ((u.seats || []).map((s) => `P${s.seat} ${s.kind === 'bot' ? s.spec : 'human'}${s.left ? ' (left)' : ''}`)).join(', ')),
      clock, el('div', { class: 'head-controls' }, controls),
      el('p', { class: 'hint-line', 'aria-live': 'polite', text: hintText }),
      el('p', { class: 'small keys-hint', text: 'Keys: 1–9 pick an action, Enter confirms, u takes back, l goes to the log, ? explains this decision and lists the keys.' }));
  }

  async function askHint(u) {
    state.hint = { decision: u.decision, text: 'Thinking…' };
    drawHead(state.update || u);
    try {
      const rep = await app.conn.request('hint', {});
      state.hint = { decision: u.decision, text: `Hint: ${rep.text}` };
    } catch (err) {
      state.hint = null;
      // refused all the same: say so once, offer no more
      if (err.code === 'illegal') state.noHints = `No hints at this table: ${err.message}.`;
      else app.showError(`No hint: ${err.message || err.code}`);
    }
    if (state.update) drawHead(state.update);
  }

  function drawClock(u) {
    const c = u.clock;
    if (!c || !Array.isArray(c.remaining_ms)) return null;
    const since = Date.now() - state.clockAt;
    const cells = c.remaining_ms.map((ms, i) => {
      if (ms === null || ms === undefined) return null;
      const left = Math.max(0, ms - (c.running === i ? since : 0));
      return el('span', { class: `clock${c.running === i ? ' running' : ''}`, text: `P${i} ${formatMs(left)}` });
    }).filter(Boolean);
    return cells.length ? el('p', { class: 'clocks', 'aria-label': `Clocks (${c.mode === 'total' ? 'per game' : 'per move'})` }, cells.map((x, i) => [i ? ' · ' : '', x])) : null;
  }

  function drawScore(u) {
    if (!u.over) { score.hidden = true; return; }
    const r = u.result || {};
    const n = Array.isArray(r.scores) ? r.scores.length : 0;
    const winners = new Set(Array.isArray(r.winners) ? r.winners : []);
    const rows = [];
    for (let i = 0; i < n; i++) {
      rows.push(el('tr', { class: winners.has(i) ? 'winner' : '' },
        el('td', { text: seatName(i) + (u.seat === i ? ' (you)' : '') }),
        el('td', { text: String(r.scores[i]) }),
        el('td', { text: Array.isArray(r.ranks) ? String(r.ranks[i]) : '' }),
        el('td', { text: winners.has(i) ? 'winner' : '' })));
    }
    const how = r.ended_by === 'resign' ? 'A player resigned.' : r.ended_by === 'timeout' ? 'A player ran out of time.' : 'The game ended by its rules.';
    fill(score, el('h2', { id: 'score-h', text: 'Game over: scoreboard' }),
      el('p', { text: `${how} Winner${winners.size === 1 ? '' : 's'}: ${[...winners].map((i) => seatName(i)).join(', ') || 'none'}.` }),
      el('table', {}, el('thead', {}, el('tr', {}, el('th', { text: 'Seat' }), el('th', { text: 'Score' }), el('th', { text: 'Rank' }), el('th', { text: '' }))),
        el('tbody', {}, rows)),
      achievementsList(r.achievements, n, seatName),
      el('p', {}, el('a', { href: `#game=${route.game_id}&replay=1`, text: 'Replay this game' }), ' · ', el('a', { href: '#/', text: 'Back to the lobby' })));
    score.hidden = false;
  }

  async function onUpdate(u) {
    if (u.game_id !== route.game_id) return;
    state.update = u;
    state.clockAt = Date.now();
    state.busy = false;
    addEvents(u.events);
    const game = u.game || state.viewGame || app.gameOfId(route.game_id);
    if (!state.view || state.viewGame !== game) {
      state.viewGame = game;
      const mod = route.text ? generic : await viewFor(game);
      if (state.update !== u) return; // a newer update arrived while loading
      state.view = mod.createView(board, ctx);
      state.view.generic = mod === generic;
    }
    render(u);
  }

  function render(u) {
    if (!state.view) return;
    drawHead(u);
    drawScore(u);
    const snap = {
      game: state.viewGame, seat: u.seat, obs: u.observation || {}, obsText: u.observation_text,
      annals: u.annals || null, // a game's history beside the state (docs/protocol.md)
      log, actions: u.your_turn ? u.actions || [] : [], help: u.help || '', prompt: u.prompt || '',
      toAct: !!u.your_turn, over: !!u.over, result: u.result,
      toActSeat: Number.isInteger(u.to_act) ? u.to_act : null,
      decision: Number.isInteger(u.decision) ? u.decision : null, // the seat's decision number
    };
    try {
      state.view.render(snap);
    } catch (err) {
      // A game's view that cannot draw this update leaves the seat playable
      // on the generic table rather than stuck.
      if (state.view.generic) throw err;
      app.showError(`The ${state.viewGame} table could not be drawn (${err && err.message}); showing the text table.`);
      state.view = generic.createView(board, ctx);
      state.view.generic = true;
      state.view.render(snap);
    }
    app.setTurn(!!u.your_turn, seatName(u.seat));
    app.setStatus(u.over ? 'Game over' : u.your_turn ? 'Your turn' : 'Waiting for the others');
  }

  async function sitDown() {
    try {
      if (route.watch) await app.conn.request('spectate', { game_id: route.game_id, since: state.seen }, updateOf(route.game_id));
      else {
        const u = await app.conn.request('sit', { game_id: route.game_id, token, since: state.seen }, updateOf(route.game_id));
        // The token names its seat, whatever the link says: keep it under that one.
        if (route.token && Number.isInteger(u.seat)) {
          saveToken(route.game_id, u.seat, token, u.game || '');
          if (u.seat !== route.seat) history.replaceState(null, '', gameHash(route.game_id, u.seat));
        }
      }
    } catch (err) {
      if (err.code === 'bad_token') {
        if (!route.token) forgetToken(route.game_id, route.seat);
        fill(board, el('section', { class: 'panel' }, el('h2', { text: 'This link opens no seat' }),
          el('p', { text: 'The token in it matches no seat of this game. Ask for the invite link again, or watch the game.' }),
          el('a', { href: `#game=${route.game_id}&watch=1`, text: 'Watch the game' })));
        app.showError('This seat\'s link is not valid.');
      } else app.showError(`${err.message || err.code}`);
    }
  }

  const offUpdate = app.listen('update', (u) => { onUpdate(u).catch((e) => app.showError(String(e && e.message || e))); });
  const offTurn = app.listen('your_turn', (m) => { if (m.game_id === route.game_id) app.notifyTurn(); });
  const offReconnect = app.listen('reconnect', () => sitDown());
  const tick = setInterval(() => { if (state.update && state.update.clock) drawHead(state.update); }, 1000);
  await sitDown();

  // For `?`: the seat's help for the decision at hand (its update's `help`,
  // in the words of the game's view), and the guide's address.
  function helpNow() {
    const u = state.update;
    if (!u || u.seat === null || u.seat === undefined) return null;
    const game = u.game || state.viewGame;
    const words = state.view && typeof state.view.words === 'function' ? state.view.words : (t) => t;
    return {
      help: u.your_turn && u.help ? words(u.help) : '',
      guide: game ? `/api/games/${encodeURIComponent(game)}/guide` : '',
    };
  }

  // Keyboard: the view's shortcuts (digits, Enter, u), l for the log.
  const onKey = (e) => {
    if (!state.view) return false;
    if (e.key === 'l') {
      const logBox = board.querySelector('.log-lines');
      if (logBox) { logBox.focus(); return true; }
      return false;
    }
    const keys = state.view.keys ? state.view.keys() : new Map();
    const a = keys.get(e.key === 'd' ? 'Enter' : e.key);
    if (!a) return false;
    if (e.key === 'Enter' && e.target && e.target.closest && e.target.closest('button, a, summary, input, select')) return false;
    submit(a);
    return true;
  };
  app.setKeyHandler(onKey);
  app.setHelpProvider(() => helpNow());

  return () => {
    offUpdate();
    offTurn();
    offReconnect();
    clearInterval(tick);
    app.setKeyHandler(null);
    app.setHelpProvider(null);
    app.setTurn(false);
  };
}

function formatMs(ms) {
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (d) return `${d}d ${h}h`;
  if (h) return `${h}h ${String(m).padStart(2, '0')}m`;
  return `${m}:${String(sec).padStart(2, '0')}`;
}
