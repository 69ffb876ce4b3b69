// replay.js: the replay viewer of a finished game.  Once a game is over the
// server releases its record (every action, chance included) and its seed
// (`record`), and the log can be read from the start (`history`).  The viewer
// steps through the log one event at a time (buttons, a slider, the arrow
// keys, or play), showing the log so far and, when the game's view module
// offers one (replaySummary), where the game stood: for DML the Round, whose
// Turn it was and the last dice.  Beside it are the record
// and the seed, which replay the whole game exactly with
// `croupier replay FILE`.  The browser seated at the game (it holds a token)
// reads the log as its seat saw it; anyone else as a spectator.
import { el, fill } from './dom.js';
import { loadToken } from './store.js';
import { updateOf } from './proto.js';
import { viewFor } from './game.js';

const PAGE = 500; // events per `history` reply (docs/protocol.md)
const MAX_EVENTS = 200000; // a bound on the pages read, far above any game

export async function showReplay(main, app, route) {
  fill(main, el('section', { class: 'panel' }, el('h1', { text: 'Replay' }), el('p', { text: 'Loading the record…' })));
  let recordMsg;
  try {
    recordMsg = await app.conn.request('record', { game_id: route.game_id });
  } catch (err) {
    fill(main, el('section', { class: 'panel' }, el('h1', { text: 'Replay' }),
      el('p', { text: err.code === 'not_finished' ? 'This game is still being played: its record is released when it ends.' : String(err.message || err.code) }),
      el('a', { href: `#game=${route.game_id}&watch=1`, text: 'Watch it' })));
    return () => {};
  }
  // Follow the game as our seat if this browser holds one, else as a spectator.
  let token = null;
  let seat = null;
  for (let s = 0; s < 16 && !token; s++) {
    const t = loadToken(route.game_id, s);
    if (t) { token = t; seat = s; }
  }
  if (token) await app.conn.request('sit', { game_id: route.game_id, token, since: 0 }, updateOf(route.game_id));
  else await app.conn.request('spectate', { game_id: route.game_id, since: 0 }, updateOf(route.game_id));
  const events = [];
  for (let since = 0; since < MAX_EVENTS;) {
    const page = await app.conn.request('history', { since });
    const list = Array.isArray(page.events) ? page.events : [];
    for (const e of list) if (e && typeof e.seq === 'number' && e.seq >= since) events.push(e);
    if (!list.length || events.length >= (page.count || 0)) break;
    since = events[events.length - 1].seq + 1;
  }
  const total = events.length;
  // The game's view may summarise a step (web/games/<game>.js: replaySummary).
  const view = await viewFor(app.gameOfId(route.game_id));
  let step = total ? total - 1 : 0;
  let playing = null;

  const stepLine = el('p', { class: 'step-line', 'aria-live': 'polite' });
  const summary = el('div', { class: 'where' });
  const logBox = el('ol', { class: 'log-lines replay-log', tabindex: 0, 'aria-label': 'Log up to this step' });
  const slider = el('input', { type: 'range', min: 0, max: Math.max(0, total - 1), value: step, 'aria-label': 'Step' });
  const button = (text, label, f) => el('button', { type: 'button', text, 'aria-label': label, onclick: f });
  const playButton = button('▶ Play', 'Play', () => togglePlay());
  const bar = el('div', { class: 'replay-bar' },
    button('⏮', 'First step', () => go(0)), button('◀', 'Previous step', () => go(step - 1)),
    slider, button('▶', 'Next step', () => go(step + 1)), button('⏭', 'Last step', () => go(total - 1)), playButton);
  slider.addEventListener('input', () => go(Number(slider.value)));

  const recordText = String(recordMsg.record || '');
  fill(main,
    el('section', { class: 'panel' },
      el('h1', { text: `Replay · ${app.gameTitle(app.gameOfId(route.game_id))}` }),
      el('p', { class: 'small', text: `${total} events${seat !== null ? `, as P${seat} saw them` : ', as a spectator saw them'} · seed ${String(recordMsg.seed || '')}` }),
      bar, stepLine, summary),
    el('div', { class: 'table' },
      el('section', { class: 'panel log' }, el('h2', { text: 'Log so far' }), logBox),
      el('section', { class: 'panel' }, el('h2', { text: 'The record' }),
        el('p', { class: 'small', text: 'Every action with the chance outcomes; save it as a file and run croupier replay FILE to see the end again.' }),
        el('pre', { class: 'obs-text record-text', tabindex: 0, text: recordText }))),
    el('p', {}, el('a', { href: `#game=${route.game_id}&watch=1`, text: 'Scoreboard' }), ' · ', el('a', { href: '#/', text: 'Lobby' })));

  function go(k) {
    if (!total) { stepLine.textContent = 'The log is empty.'; return; }
    step = Math.max(0, Math.min(total - 1, k));
    slider.value = String(step);
    const e = events[step];
    stepLine.textContent = `Step ${step + 1} of ${total}: ${e.text || ''}`;
    fill(summary, view && typeof view.replaySummary === 'function' ? view.replaySummary(events, step) : null);
    const from = Math.max(0, step - 300);
    fill(logBox);
    for (let i = from; i <= step; i++) {
      logBox.appendChild(el('li', { value: events[i].seq + 1, class: i === step ? 'current' : '', text: events[i].text || '' }));
    }
    logBox.scrollTop = logBox.scrollHeight;
  }
  function togglePlay() {
    if (playing) { clearInterval(playing); playing = null; playButton.textContent = '▶ Play'; return; }
    if (step >= total - 1) go(0);
    playButton.textContent = '❚❚ Pause';
    playing = setInterval(() => {
      if (step >= total - 1) { togglePlay(); return; }
      go(step + 1);
    }, 400);
  }
  app.setKeyHandler((e) => {
    if (e.key === 'ArrowRight') { go(step + 1); return true; }
    if (e.key === 'ArrowLeft') { go(step - 1); return true; }
    if (e.key === 'Home') { go(0); return true; }
    if (e.key === 'End') { go(total - 1); return true; }
    if (e.key === ' ' && !(e.target && e.target.closest && e.target.closest('button'))) { togglePlay(); return true; }
    return false;
  });
  go(step);
  return () => {
    if (playing) clearInterval(playing);
    app.setKeyHandler(null);
  };
}
