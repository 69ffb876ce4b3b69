// lobby.js: the lobby page.  Create a game (game, variant, player count,
// options, each seat as you / an open seat / an invite / a bot, a clock, a
// webhook, hints), the invite links of the game just made, the open games to join,
// running games to watch, finished games (scoreboard, replay), the games this
// browser holds a seat in, and statistics per title.  Every choice offered
// comes from the server's `welcome` (its games, variants, options, bots).
import { el, fill } from './dom.js';
import { seatTokens, saveToken, gameHash, inviteUrl } from './tokens.js';

const BOT_DEFAULTS = ['heuristic', 'random', 'ismcts:iters=300'];

export async function showLobby(main, app) {
  const { welcome } = app;
  const createBox = el('section', { class: 'panel create', 'aria-labelledby': 'create-h' });
  const invitesBox = el('div', { class: 'invites-box' });
  const mine = el('section', { class: 'panel mine', 'aria-labelledby': 'mine-h' });
  const open = el('section', { class: 'panel open-games', 'aria-labelledby': 'open-h' });
  const running = el('section', { class: 'panel running-games', 'aria-labelledby': 'running-h' });
  const finished = el('section', { class: 'panel finished-games', 'aria-labelledby': 'finished-h' });
  const stats = el('section', { class: 'panel stats', 'aria-labelledby': 'stats-h' });
  fill(main, el('h1', { class: 'visually-hidden', text: 'Lobby' }),
    el('div', { class: 'lobby' }, createBox, mine, open, running, finished, stats));
  app.setStatus('Lobby');

  drawCreate(createBox, invitesBox, app, welcome);
  drawMine(mine);
  await refreshLists(app, { open, running, finished, stats });
  const timer = setInterval(() => {
    if (!document.body.contains(open)) { clearInterval(timer); return; }
    refreshLists(app, { open, running, finished, stats }).catch(() => {});
  }, 5000);
}

// --- create ------------------------------------------------------------------
function drawCreate(box, invitesBox, app, welcome) {
  const games = (welcome && welcome.games) || [];
  const bots = (welcome && welcome.bots) || BOT_DEFAULTS;
  const form = el('form', { class: 'create-form', novalidate: true });
  const gameSel = el('select', { id: 'c-game', name: 'game' },
    games.map((g) => el('option', { value: g.name, text: `${g.title || g.name}` })));
  const variantSel = el('select', { id: 'c-variant', name: 'variant' });
  const playersSel = el('select', { id: 'c-players', name: 'players' });
  const optionsBox = el('div', { class: 'options' });
  const seatsBox = el('div', { class: 'seats', role: 'group', 'aria-label': 'Seats' });
  const botList = el('datalist', { id: 'bot-specs' }, bots.map((b) => el('option', { value: b.replace(/=N$/, '=300') })));
  const clockMode = el('select', { id: 'c-clock', name: 'clock' },
    el('option', { value: '', text: 'no clock' }),
    el('option', { value: 'move', text: 'per move' }),
    el('option', { value: 'total', text: 'total per player' }));
  const clockMinutes = el('input', { id: 'c-minutes', type: 'number', min: 1, max: 100000, value: 1440, 'aria-label': 'Minutes' });
  const clockInc = el('input', { id: 'c-inc', type: 'number', min: 0, max: 86400, value: 0, 'aria-label': 'Increment in seconds' });
  const onTimeout = el('input', { id: 'c-timeout', type: 'text', value: 'heuristic', list: 'bot-specs', 'aria-label': 'On time-out: a bot spec, or end' });
  const webhook = el('input', { id: 'c-webhook', type: 'url', placeholder: 'http://… (optional)', maxlength: 512 });
  // Hints at a table of several humans only when everyone agrees: here, at
  // the creation; whoever joins later sees "hints allowed" in the list first.
  const hints = el('input', { id: 'c-hints', type: 'checkbox' });
  const clockRow = el('div', { class: 'clock-details' },
    el('div', { class: 'form-row' }, el('label', { for: 'c-minutes', text: 'Minutes' }), clockMinutes,
      el('label', { for: 'c-inc', text: 'Increment (s)' }), clockInc),
    el('div', { class: 'form-row' }, el('label', { for: 'c-timeout', text: 'On time-out' }), onTimeout,
      el('span', { class: 'small', text: 'a bot takes the seat, or "end" ends the game' })));
  const submit = el('button', { type: 'submit', id: 'c-create', text: 'Create game' });
  const errorLine = el('p', { class: 'bad', role: 'alert' });

  const game = () => games.find((g) => g.name === gameSel.value) || games[0];
  const variant = () => {
    const g = game();
    return g && (g.variants || []).find((v) => v.name === variantSel.value);
  };

  // The bot choices: the game's tiers by name (weakest first, each with
  // what it plays like), then the bots the server hosts.
  const tiersOf = (g) => (g && Array.isArray(g.tiers) ? g.tiers : []);
  function drawBotList() {
    const tiers = tiersOf(game());
    fill(botList, [
      ...tiers.map((t) => el('option', { value: t.name, text: `${t.name}: ${t.words}` })),
      ...bots.map((b) => el('option', { value: b.replace(/=N$/, '=300') })),
    ]);
  }
  // A new bot seat's spec: the game's club tier, else the heuristic.
  const defaultBot = () => {
    if (tiersOf(game()).some((t) => t.name === 'club')) return 'club';
    return bots.includes('heuristic') ? 'heuristic' : (bots[0] || 'random');
  };
  function drawVariants() {
    drawBotList();
    const g = game();
    fill(variantSel, (g ? g.variants || [] : []).map((v) =>
      el('option', { value: v.name, text: v.summary ? `${v.name}: ${v.summary}` : v.name })));
    drawPlayers();
    drawOptions();
  }
  function drawPlayers() {
    const v = variant();
    const lo = v && Number.isInteger(v.min_players) ? v.min_players : 1;
    const hi = v && Number.isInteger(v.max_players) ? Math.min(v.max_players, 16) : lo;
    const keep = Number(playersSel.value);
    fill(playersSel);
    for (let n = lo; n <= hi; n++) playersSel.appendChild(el('option', { value: n, text: String(n) }));
    playersSel.value = keep >= lo && keep <= hi ? String(keep) : String(hi);
    drawSeats();
  }
  // One control per table option, by its type (int, bool, choice, seat; a
  // `file` option names data on the server and keeps its built-in default).
  // An option that belongs to one variant (its `variant`, e.g. one
  // edition's historic switches) is offered only with that variant: the server
  // refuses it with another.
  function drawOptions() {
    const g = game();
    fill(optionsBox);
    for (const o of (g && g.options) || []) {
      if (o.variant && o.variant !== variantSel.value) continue;
      const id = `c-opt-${o.key}`;
      const def = String(o.default === undefined ? '' : o.default);
      let input;
      if (o.type === 'seat') {
        input = el('select', { id, dataset: { option: o.key } });
        for (let s = 0; s < Number(playersSel.value || 0); s++) {
          input.appendChild(el('option', { value: String(s), text: `P${s}`, selected: String(s) === def }));
        }
      } else if (o.type === 'bool') {
        const on = def === '1' || def === 'true';
        input = el('select', { id, dataset: { option: o.key } },
          el('option', { value: 'yes', text: 'yes', selected: on }),
          el('option', { value: 'no', text: 'no', selected: !on }));
      } else if (o.type === 'choice' && Array.isArray(o.choices)) {
        input = el('select', { id, dataset: { option: o.key } },
          o.choices.map((c, i) => el('option', { value: String(c), text: String(c), selected: String(i) === def })));
      } else if (o.type === 'int') {
        input = el('input', { id, type: 'number', min: o.min, max: o.max, value: def, dataset: { option: o.key } });
      } else {
        optionsBox.appendChild(el('p', { class: 'small', text: `${o.key}: the server's built-in default${o.help ? ` (${o.help})` : ''}` }));
        continue;
      }
      optionsBox.appendChild(el('div', { class: 'form-row' },
        el('label', { for: id, text: o.key }), input,
        o.help ? el('span', { class: 'small', text: o.help }) : null));
    }
    if (!optionsBox.childNodes.length) optionsBox.appendChild(el('p', { class: 'empty', text: 'This game has no table options.' }));
  }
  function drawSeats() {
    const n = Number(playersSel.value || 0);
    const old = [...seatsBox.querySelectorAll('.seat-row')].map((row) => ({
      kind: row.querySelector('select').value, spec: row.querySelector('input').value,
    }));
    fill(seatsBox);
    for (let s = 0; s < n; s++) {
      const prev = old[s] || { kind: s === 0 ? 'me' : 'bot', spec: defaultBot() };
      const kind = el('select', { id: `c-seat-${s}`, 'aria-label': `Seat P${s}` },
        el('option', { value: 'me', text: 'me', selected: prev.kind === 'me' }),
        el('option', { value: 'human', text: 'open seat', selected: prev.kind === 'human' }),
        el('option', { value: 'invite', text: 'invite link', selected: prev.kind === 'invite' }),
        el('option', { value: 'bot', text: 'bot', selected: prev.kind === 'bot' }));
      const spec = el('input', { id: `c-spec-${s}`, type: 'text', list: 'bot-specs', value: prev.spec, 'aria-label': `Bot for seat P${s}: a tier or a bot spec` });
      const sync = () => { spec.hidden = kind.value !== 'bot'; };
      kind.addEventListener('change', () => {
        if (kind.value === 'me') {
          for (const other of seatsBox.querySelectorAll('.seat-row select')) {
            if (other !== kind && other.value === 'me') { other.value = 'human'; other.dispatchEvent(new Event('change')); }
          }
        }
        sync();
      });
      sync();
      seatsBox.appendChild(el('div', { class: 'seat-row' }, el('label', { for: `c-seat-${s}`, text: `P${s}` }), kind, spec));
    }
    drawOptions();
  }
  const syncClock = () => { clockRow.hidden = clockMode.value === ''; };
  gameSel.addEventListener('change', drawVariants);
  variantSel.addEventListener('change', () => { drawPlayers(); drawOptions(); });
  playersSel.addEventListener('change', drawSeats);
  clockMode.addEventListener('change', syncClock);

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    errorLine.textContent = '';
    const g = game();
    if (!g) { errorLine.textContent = 'This server hosts no game.'; return; }
    const seats = [];
    let sit;
    for (const row of seatsBox.querySelectorAll('.seat-row')) {
      const kind = row.querySelector('select').value;
      const s = seats.length;
      if (kind === 'me') { seats.push('human'); sit = s; }
      else if (kind === 'bot') {
        const spec = row.querySelector('input').value.trim();
        if (!spec) { errorLine.textContent = `Seat P${s}: name a bot.`; return; }
        seats.push(spec);
      } else seats.push(kind);
    }
    const options = {};
    for (const input of optionsBox.querySelectorAll('[data-option]')) options[input.dataset.option] = String(input.value);
    const msg = { game: g.name, variant: variantSel.value, players: Number(playersSel.value), options, seats };
    if (sit !== undefined) msg.sit = sit;
    if (clockMode.value) {
      const minutes = Number(clockMinutes.value);
      const inc = Number(clockInc.value);
      if (!(minutes >= 1) || !(inc >= 0)) { errorLine.textContent = 'The clock needs a positive number of minutes.'; return; }
      msg.clock = { mode: clockMode.value, initial_ms: Math.round(minutes * 60000), increment_ms: Math.round(inc * 1000), on_timeout: onTimeout.value.trim() || 'end' };
    }
    if (webhook.value.trim()) msg.webhook = webhook.value.trim();
    if (hints.checked) msg.hints = 'allowed';
    submit.disabled = true;
    try {
      const reply = await app.conn.request('create', msg);
      const list = el('ul', { class: 'invites' });
      for (const s of reply.seats || []) {
        if (typeof s.token !== 'string') continue;
        if (s.seat === sit) {
          saveToken(reply.game_id, s.seat, s.token, g.name);
          continue;
        }
        const url = inviteUrl(reply.game_id, s.seat, s.token);
        const input = el('input', { type: 'text', readonly: true, value: url, 'aria-label': `Invite link for P${s.seat}`, dataset: { invite: s.seat } });
        input.addEventListener('focus', () => input.select());
        list.appendChild(el('li', {}, el('span', { text: `P${s.seat}: ` }), input,
          el('button', { type: 'button', class: 'secondary', text: 'Copy', onclick: () => copy(url) })));
      }
      const target = sit !== undefined ? gameHash(reply.game_id, sit) : `#game=${reply.game_id}&watch=1`;
      if (!list.childNodes.length) {
        location.hash = target;
        return;
      }
      // Invite links first: the game page does not show the other seats' tokens.
      const go = el('a', { href: target, id: 'go-table', class: 'button-link', text: sit !== undefined ? `Take your seat (P${sit})` : 'Watch the game' });
      fill(invitesBox, el('h3', { text: 'Invite links (each one is a seat: send it only to its player)' }), list, go);
      go.focus();
    } catch (err) {
      errorLine.textContent = `Could not create the game: ${err.message || err.code}`;
    } finally {
      submit.disabled = false;
    }
  });

  fill(box, el('h2', { id: 'create-h', text: 'New game' }), botList, form);
  form.append(
    el('div', { class: 'form-row' }, el('label', { for: 'c-game', text: 'Game' }), gameSel),
    el('div', { class: 'form-row' }, el('label', { for: 'c-variant', text: 'Variant' }), variantSel),
    el('div', { class: 'form-row' }, el('label', { for: 'c-players', text: 'Players' }), playersSel),
    el('h3', { text: 'Seats' }), seatsBox,
    el('h3', { text: 'Options' }), optionsBox,
    el('h3', { text: 'Clock' }),
    el('div', { class: 'form-row' }, el('label', { for: 'c-clock', text: 'Clock' }), clockMode), clockRow,
    el('h3', { text: 'Hints' }),
    el('div', { class: 'form-row' }, hints, el('label', { for: 'c-hints', text: 'Hints allowed' }),
      el('span', { class: 'small', text: 'with two or more people at the table, everyone agrees to hints (a bot\'s suggestion on request); whoever joins sees it first. One person against bots always has them.' })),
    el('div', { class: 'form-row' }, el('label', { for: 'c-webhook', text: 'Webhook' }), webhook,
      el('span', { class: 'small', text: 'the server POSTs here when an absent player is to move' })),
    submit, errorLine, invitesBox);
  drawVariants();
  syncClock();
}

function copy(text) {
  if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
}

// --- this browser's seats ------------------------------------------------------
function drawMine(box) {
  const list = el('ul', { class: 'game-list' });
  for (const t of seatTokens()) {
    list.appendChild(el('li', {},
      el('a', { href: gameHash(t.game_id, t.seat), text: `${t.game || 'game'} ${t.game_id.slice(0, 8)} · P${t.seat}` })));
  }
  fill(box, el('h2', { id: 'mine-h', text: 'Your seats' }),
    list.childNodes.length ? list : el('p', { class: 'empty', text: 'None in this browser yet.' }));
}

// --- lists and statistics --------------------------------------------------------
async function refreshLists(app, boxes) {
  const [all, st] = await Promise.all([
    app.conn.request('list', { status: 'all' }),
    app.conn.request('stats', {}),
  ]);
  const games = all.games || [];
  const titleOf = (name) => {
    const g = ((app.welcome && app.welcome.games) || []).find((x) => x.name === name);
    return g ? g.title || g.name : name;
  };
  const describe = (g) => `${titleOf(g.game)} · ${g.variant} · ${g.players} players · ${g.actions} actions`;
  const seatsText = (g) => (g.seats || []).map((s) => `P${s.seat} ${s.kind === 'bot' ? s.spec : s.taken ? 'player' : 'free'}`).join(', ');
  // the players agreed to hints at the creation: joining is agreeing too
  const hintsNote = (g) => (g.hints ? el('span', { class: 'small hints-allowed', text: 'hints allowed' }) : null);

  const openList = el('ul', { class: 'game-list' });
  for (const g of games.filter((x) => x.status === 'open')) {
    openList.appendChild(el('li', { dataset: { game: g.game_id } }, el('span', { text: describe(g) }), el('span', { class: 'small', text: seatsText(g) }), hintsNote(g),
      (g.seats || []).filter((s) => s.kind === 'human' && !s.taken).map((s) => el('button', {
        type: 'button', text: `Join as P${s.seat}`, onclick: () => join(app, g, s.seat),
      }))));
  }
  fill(boxes.open, el('h2', { id: 'open-h', text: 'Open games' }),
    openList.childNodes.length ? openList : el('p', { class: 'empty', text: 'No game has a free seat.' }));

  const runList = el('ul', { class: 'game-list' });
  for (const g of games.filter((x) => x.status === 'running' || x.status === 'open')) {
    runList.appendChild(el('li', { dataset: { game: g.game_id } }, el('span', { text: describe(g) }), hintsNote(g),
      el('a', { href: `#game=${g.game_id}&watch=1`, text: 'Watch' })));
  }
  fill(boxes.running, el('h2', { id: 'running-h', text: 'Running games' }),
    runList.childNodes.length ? runList : el('p', { class: 'empty', text: 'None.' }));

  const finList = el('ul', { class: 'game-list' });
  for (const g of games.filter((x) => x.status === 'finished' || x.status === 'outdated')) {
    finList.appendChild(el('li', { dataset: { game: g.game_id } }, el('span', { text: describe(g) }),
      g.status === 'outdated' ? el('span', { class: 'small', text: 'stored under older rules: read-only' }) : null,
      el('a', { href: `#game=${g.game_id}&watch=1`, text: 'Scoreboard' }),
      el('a', { href: `#game=${g.game_id}&replay=1`, text: 'Replay' })));
  }
  fill(boxes.finished, el('h2', { id: 'finished-h', text: 'Finished games' }),
    finList.childNodes.length ? finList : el('p', { class: 'empty', text: 'None yet.' }));

  const blocks = [];
  for (const t of st.titles || []) {
    const table = el('table', { class: 'stats' },
      el('caption', { text: `${t.title || t.game}: ${t.finished} games played, on average ${Number(t.avg_actions || 0).toFixed(1)} actions long` }),
      el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: 'Seat' }), el('th', { scope: 'col', text: 'Games' }),
        el('th', { scope: 'col', text: 'Wins' }), el('th', { scope: 'col', text: 'Win rate' }))),
      el('tbody', {}, (t.by_seat || []).map((s) => el('tr', {},
        el('td', { text: `P${s.seat}` }), el('td', { text: String(s.games) }), el('td', { text: String(s.wins) }),
        el('td', { text: `${Math.round(Number(s.win_rate || 0) * 1000) / 10}%` })))));
    blocks.push(table);
  }
  fill(boxes.stats, el('h2', { id: 'stats-h', text: 'Statistics' }),
    blocks.length ? blocks : el('p', { class: 'empty', text: 'No finished game yet.' }));
}

async function join(app, g, seat) {
  try {
    const reply = await app.conn.request('join', { game_id: g.game_id, seat });
    saveToken(reply.game_id, reply.seat, reply.token, g.game);
    location.hash = gameHash(reply.game_id, reply.seat);
  } catch (err) {
    app.showError(`Could not join: ${err.message || err.code}`);
  }
}
