// replay.js: the replay viewer of a finished game.  Once a game is over the
// server releases its record (every action, chance included) and its seed
// (`record`), and answers `replay`: the table after any number of the
// record's actions, from the public view or any seat's (docs/protocol.md).
// The viewer steps through the record (buttons, a slider, the arrow keys,
// Home / End, or play) and draws each step with the game's own table
// (web/games/<game>.js; the generic table for a game without one), with no
// controls; a selector picks the view.  Beside it: what the step's action
// did (its events, as that view sees them), the log up to that step (in the
// table: read with `history`, as this browser's seat or a spectator saw
// it), and the record and seed, which replay the whole game with
// `croupier replay FILE`.  A running game's steps are refused by the server
// (its record is secret until the end); the page says so.  The coach: a
// seat's decisions analysed by the server (`analyse`: its search from what
// that seat knew), shown at each of that seat's steps (the move played and
// its win chance, the best alternative's, the mark) in that seat's view,
// with a summary whose marked decisions are links to their steps.
import { el, fill } from './dom.js';
import { loadToken } from './tokens.js';
import { updateOf } from './proto.js';
import { viewFor, achievementsList } from './game.js';
import * as generic from './generic-view.js';

const PAGE = 500; // events per `history` reply (docs/protocol.md)
const MAX_EVENTS = 200000; // a bound on the pages read, far above any game
const PLAY_MS = 400; // the pace of play: under the server's replay rate
const ANALYSE_MS = 150000; // the server stops an analysis after 120 s
const MARK = { doubtful: '?', blunder: '??', fine: '' };
const pct = (x) => `${Math.round(Number(x || 0) * 100)}%`;

export async function showReplay(main, app, route) {
  fill(main, el('section', { class: 'panel' }, el('h1', { text: 'Replay' }), el('p', { text: 'Loading the record…' })));
  let recordMsg;
  try {
    recordMsg = await app.conn.request('record', { game_id: route.game_id });
  } catch (err) {
    fill(main, el('section', { class: 'panel' }, el('h1', { text: 'Replay' }),
      el('p', { class: 'not-finished', text: err.code === 'not_finished' ? 'This game is still being played: its record is released when it ends.' : String(err.message || err.code) }),
      el('a', { href: `#game=${route.game_id}&watch=1`, text: 'Watch it' })));
    return () => {};
  }
  // The log is read as our seat saw it if this browser holds one, else as a spectator.
  let token = null;
  let mySeat = null;
  for (let s = 0; s < 16 && !token; s++) {
    const t = loadToken(route.game_id, s);
    if (t) { token = t; mySeat = s; }
  }
  if (token) await app.conn.request('sit', { game_id: route.game_id, token, since: 0 }, updateOf(route.game_id));
  else await app.conn.request('spectate', { game_id: route.game_id, since: 0 }, updateOf(route.game_id));
  const events = [];
  for (let since = 0; since < MAX_EVENTS;) {
    const page = await app.conn.request('history', { since });
    const list = Array.isArray(page.events) ? page.events : [];
    for (const e of list) if (e && typeof e.seq === 'number' && e.seq >= since) events.push(e);
    if (!list.length || list.length > PAGE || events.length >= (page.count || 0)) break;
    since = events[events.length - 1].seq + 1;
  }
  // The last step tells how many there are and how many seats.
  let view = mySeat;
  let last;
  try {
    last = await app.conn.request('replay', { game_id: route.game_id, step: 0 });
  } catch (err) {
    fill(main, el('section', { class: 'panel' }, el('h1', { text: 'Replay' }), el('p', { text: String(err.message || err.code) })));
    return () => {};
  }
  const total = Number.isInteger(last.steps) ? last.steps : 0;
  const players = Number.isInteger(last.players) ? last.players : 0;
  const game = last.game || app.gameOfId(route.game_id);
  const mod = await viewFor(game);

  const seatName = (i) => `P${i}`;
  const ctx = { submit: () => {}, seatName };
  let step = total;
  let shown = null; // the step on the table
  let busy = false;
  let playing = null;

  const stepLine = el('p', { class: 'step-line', 'aria-live': 'polite' });
  const did = el('ul', { class: 'step-events' });
  const earned = el('div', { class: 'replay-achievements' }); // at the last step
  const summary = el('div', { class: 'where' });
  const board = el('div', { class: 'board-root replay-table' });
  const slider = el('input', { type: 'range', min: 0, max: total, value: step, 'aria-label': 'Step', id: 'replay-step' });
  const button = (text, label, f) => el('button', { type: 'button', text, 'aria-label': label, onclick: f });
  const playButton = button('▶ Play', 'Play', () => togglePlay());
  const viewSel = el('select', { id: 'replay-view', 'aria-label': 'Whose view' },
    el('option', { value: '', text: 'The public table', selected: view === null }),
    [...Array(players).keys()].map((i) => el('option', { value: String(i), text: `P${i}'s view${i === mySeat ? ' (yours)' : ''}`, selected: view === i })));
  viewSel.addEventListener('change', () => {
    view = viewSel.value === '' ? null : Number(viewSel.value);
    shown = null;
    go(step);
  });
  const bar = el('div', { class: 'replay-bar' },
    button('|◀', 'First step', () => go(0)), button('◀', 'Previous step', () => go(step - 1)),
    slider, button('▶', 'Next step', () => go(step + 1)), button('▶|', 'Last step', () => go(total)), playButton,
    el('label', { for: 'replay-view', class: 'small', text: 'View' }), viewSel);
  slider.addEventListener('input', () => go(Number(slider.value)));

  // The coach: the analysis of one seat, asked of the server.
  let analysis = null;
  const coachLine = el('p', { class: 'coach-line', 'aria-live': 'polite' });
  const coachStatus = el('p', { class: 'small coach-status', role: 'status' });
  const coachSummary = el('div', { class: 'coach-summary' });
  const coachSeat = el('select', { id: 'coach-seat', 'aria-label': 'Seat to analyse' },
    [...Array(players).keys()].map((i) => el('option', { value: String(i), text: `P${i}${i === mySeat ? ' (you)' : ''}`, selected: i === (mySeat === null ? 0 : mySeat) })));
  // The search's budget a decision: 300 for a game of a few hundred steps;
  // fewer for a long one (an 18Dracula game has thousands), so that the
  // analysis ends well within the server's two minutes.
  const budgets = [50, 100, 300, 1000, 2000];
  const fits = Math.floor(120000 * Math.max(players, 1) / Math.max(total, 1));
  const preset = budgets.filter((b) => b <= Math.min(300, fits)).pop() || budgets[0];
  const coachIters = el('select', { id: 'coach-iters', 'aria-label': 'Searches per decision' },
    budgets.map((b) => el('option', { value: String(b), text: `${b} searches a decision`, selected: b === preset })));
  const analyseButton = el('button', { type: 'button', id: 'coach-analyse', text: 'Analyse', onclick: () => analyse() });
  const coachBox = el('div', { class: 'coach' },
    el('h2', { text: 'Coach' }),
    el('p', { class: 'small', text: 'The server\'s search replays each decision of a seat many times, from only what that seat knew then, and compares the move played with the best one it finds: its chance to win the game after each. ? marks a doubtful move, ?? a blunder (a clear loss of 4 or 10 points of win chance).' }),
    el('div', { class: 'form-row' }, el('label', { for: 'coach-seat', text: 'Seat' }), coachSeat, coachIters, analyseButton),
    coachStatus, coachSummary);

  async function analyse() {
    const seat = Number(coachSeat.value);
    analyseButton.disabled = true;
    coachStatus.textContent = `Analysing P${seat}'s decisions… (seconds for a short game, up to two minutes for a long one)`;
    try {
      const iters = Number(coachIters.value);
      const rep = await app.conn.request('analyse', { game_id: route.game_id, seat, iters }, null, ANALYSE_MS);
      analysis = rep;
      coachStatus.textContent = '';
      drawSummary();
      if (view !== seat) {
        view = seat;
        viewSel.value = String(seat);
        shown = null;
        go(step);
      } else {
        drawCoachLine(step);
      }
    } catch (err) {
      coachStatus.textContent = err.code === 'limit' ? `The server is busy: ${err.message} ` : `No analysis: ${err.message || err.code}`;
    } finally {
      analyseButton.disabled = false;
    }
  }
  function drawSummary() {
    const s = analysis.summary || {};
    const decisions = Array.isArray(analysis.decisions) ? analysis.decisions : [];
    const marked = decisions.filter((d) => d.mark !== 'fine').sort((a, b) => b.loss - a.loss);
    fill(coachSummary,
      el('p', { class: 'coach-counts', text: `P${analysis.seat}: ${s.analysed} decisions analysed (${analysis.iters} searches each), ${s.doubtful} doubtful (?), ${s.blunders} blunder${s.blunders === 1 ? '' : 's'} (??). Error rate ${Number(s.error_rate || 0).toFixed(1)}: the win chance lost by clear mistakes, per decision, in thousandths of a win.` }),
      marked.length ? el('ol', { class: 'coach-worst' }, marked.map((d) => el('li', {},
        el('button', { type: 'button', class: 'link', dataset: { step: d.step }, text: `Step ${d.step} ${MARK[d.mark]}`, onclick: () => go(d.step) }),
        ` played ${d.played} (${pct(d.played_win)}), best ${d.best} (${pct(d.best_win)})`)))
        : el('p', { class: 'small', text: 'No clear mistake: every difference is within the search\'s noise.' }));
  }
  // The coach's word on step k: the analysed seat's decision that led to it.
  function drawCoachLine(k) {
    if (!analysis) { coachLine.textContent = ''; return; }
    const who = `P${analysis.seat}`;
    if (view !== analysis.seat) { coachLine.textContent = `The coach's analysis of ${who} shows in ${who}'s view.`; return; }
    const decisions = Array.isArray(analysis.decisions) ? analysis.decisions : [];
    const d = decisions.find((x) => x.step === k);
    if (!d) {
      const next = decisions.find((x) => x.step > k);
      coachLine.textContent = next ? `Coach: ${who}'s next analysed decision is step ${next.step}.` : `Coach: no analysed decision of ${who} after this step.`;
      return;
    }
    coachLine.dataset.mark = d.mark;
    coachLine.textContent = d.played === d.best
      ? `Coach, ${who}'s decision ${d.decision}: played ${d.played}, ${pct(d.played_win)} to win: the best of ${d.choices} choices.`
      : `Coach, ${who}'s decision ${d.decision}: played ${d.played}, ${pct(d.played_win)} to win ${MARK[d.mark]}; best ${d.best}, ${pct(d.best_win)}.`;
  }

  let table = null;
  function makeTable() {
    table = mod.createView(board, ctx);
    table.generic = mod === generic;
  }
  makeTable();

  const recordText = String(recordMsg.record || '');
  fill(main,
    el('section', { class: 'panel' },
      el('h1', { text: `Replay · ${app.gameTitle(game)}` }),
      el('p', { class: 'small', text: `${total} steps (record actions) · seed ${String(recordMsg.seed || '')}` }),
      bar, stepLine, coachLine, earned, did, summary),
    board,
    el('section', { class: 'panel' }, coachBox),
    el('section', { class: 'panel' },
      el('details', {}, el('summary', { text: 'The record' }),
        el('p', { class: 'small', text: 'Every action with the chance outcomes; save it as a file and run croupier replay FILE to see the end again.' }),
        el('pre', { class: 'obs-text record-text', tabindex: 0, text: recordText }))),
    el('p', {}, el('a', { href: `#game=${route.game_id}&watch=1`, text: 'Scoreboard' }), ' · ', el('a', { href: '#/', text: 'Lobby' })));

  // Asks for step k; while a request is on its way the latest wish waits
  // (dragging the slider asks once per answer, within the server's rate).
  function go(k) {
    step = Math.max(0, Math.min(total, k));
    slider.value = String(step);
    if (!busy) fetchStep();
  }
  async function fetchStep() {
    if (shown === `${step}/${view}`) return;
    busy = true;
    const want = step;
    const wantView = view;
    try {
      const msg = { game_id: route.game_id, step: want };
      if (wantView !== null) msg.seat = wantView;
      const rep = await app.conn.request('replay', msg);
      drawStep(rep, want, wantView);
      shown = `${want}/${wantView}`;
      app.showError('');
    } catch (err) {
      if (err.code === 'limit') await new Promise((r) => setTimeout(r, 300));
      else app.showError(String(err.message || err.code));
    }
    busy = false;
    if (shown !== `${step}/${view}`) fetchStep();
  }

  function drawStep(rep, k, seat) {
    const actor = Number.isInteger(rep.actor) ? `P${rep.actor}` : k > 0 ? 'chance' : '';
    const evs = Array.isArray(rep.events) ? rep.events : [];
    stepLine.textContent = `Step ${k} of ${total}${k === 0 ? ': the start' : `: ${actor}'s action`}${k === total ? ' (the end)' : ''}`;
    delete coachLine.dataset.mark;
    drawCoachLine(k);
    fill(earned, k === total ? achievementsList(rep.achievements, players, seatName) : null);
    fill(did, evs.slice(0, 40).map((e) => el('li', { text: e.text || '' })),
      evs.length > 40 ? el('li', { text: `… and ${evs.length - 40} more` }) : null);
    const seq = Number.isInteger(rep.seq) ? rep.seq : 0;
    const upTo = events.filter((e) => e.seq < seq);
    fill(summary, typeof mod.replaySummary === 'function' && upTo.length ? mod.replaySummary(upTo, upTo.length - 1) : null);
    const snap = {
      game, seat, obs: rep.observation || {}, annals: rep.annals || null, log: upTo, actions: [], help: '', prompt: '',
      toAct: false, over: k === total, result: null, toActSeat: Number.isInteger(rep.to_act) ? rep.to_act : null,
    };
    try {
      table.render(snap);
    } catch (err) {
      if (table.generic) throw err;
      app.showError(`The ${game} table could not be drawn (${err && err.message}); showing the text table.`);
      table = generic.createView(board, ctx);
      table.generic = true;
      table.render(snap);
    }
  }

  function togglePlay() {
    if (playing) { clearInterval(playing); playing = null; playButton.textContent = '▶ Play'; return; }
    if (step >= total) go(0);
    playButton.textContent = '❚❚ Pause';
    playing = setInterval(() => {
      if (step >= total) { togglePlay(); return; }
      if (!busy) go(step + 1);
    }, PLAY_MS);
  }
  app.setKeyHandler((e) => {
    if (e.target && e.target.closest && e.target.closest('input, select')) return false;
    if (e.key === 'ArrowRight') { go(step + 1); return true; }
    if (e.key === 'ArrowLeft') { go(step - 1); return true; }
    if (e.key === 'Home') { go(0); return true; }
    if (e.key === 'End') { go(total); return true; }
    if (e.key === ' ' && !(e.target && e.target.closest && e.target.closest('button'))) { togglePlay(); return true; }
    return false;
  });
  go(step);
  return () => {
    if (playing) clearInterval(playing);
    app.setKeyHandler(null);
  };
}
