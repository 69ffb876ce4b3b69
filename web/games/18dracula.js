// games/18dracula.js: the 18Dracula table, seen from one seat (every seat
// sees everything in 18Dracula: the observation is the whole state).
//
// The map is drawn as SVG from the game's own board file, which the server
// hands out as data (GET /api/games/18dracula/data?hash=H, the board the
// observation's data_hash names; docs/protocol.md): every location at its
// drawing coordinates, every route space with its colour and cost or the
// cube built on it, the offices in the cities' spaces, the castle and the
// off-boards with their revenue by phase.  Beside it: the phase tracker and
// the stage, the market grid with the fronts' markers, the fronts' charters,
// the players' cash and certificates, the spreadsheet (players against
// fronts, the operating rounds and the last rampage, from the update's
// `annals`), the associates with LL and BT, the monsters on offer, the log
// in words and the legal actions as controls.
// Numbers the rules derive (share prices, city levels, certificates, worth)
// come from the observation's `display` object: nothing is recomputed here.
//
// Controls: the actions grouped as the server sends them (keys 1-9, Enter);
// an action that chooses an amount shows the menu's amounts as buttons and
// a number field for any amount of its range.  An action that names a route
// space or a city (build, office, castle, a power) lights its place on the
// map when its control has the pointer or the focus, and the place itself
// is a control (click, or Tab to it and press Enter).
import { el, fill, focusKeeper, svg } from '../js/dom.js';
import { actionButton, amountProblem, displayOrder, shortcuts, cssToken } from '../js/actions.js';
import { createLog } from '../js/log.js';
import { scrollCues } from '../js/scrollcue.js';

const INK = { Y: '#d9a400', G: '#2e8b3e', B: '#2b5fb5', R: '#c0392b' };
const COLOUR_NAME = { Y: 'yellow', G: 'green', B: 'blue', R: 'red' };
const COLOURS = ['Y', 'G', 'B', 'R'];
// Token colours of the eight fronts, LL and BT (ours; the board file gives none).
const TOKEN = ['#7b2d43', '#1f5f8b', '#2f6f35', '#a4500f', '#5b3f8c', '#00706a', '#6d4c41', '#3d4a56', '#b0306a', '#596e79'];

const TITLES = {
  buy: 'Buy the associate on offer', bid: 'Bid on an associate', raise: 'Raise your bid', drop: 'Drop out',
  pass: 'Pass', end: 'End your turn', done: 'Done', sell: 'Sell shares', 'emergency-sell': 'Emergency sale',
  start: 'Start a front', 'buy-share': 'Buy a share', offer: 'Make an offer', accept: 'Accept', decline: 'Decline',
  'castle-bid': 'Bid for the castle', 'castle-place': 'Place the castle', build: 'Build a cube', office: 'Place an office',
  rampage: 'Rampage', pay: 'Pay out', retain: 'Retain', 'buy-monster': 'Buy a monster', discard: 'Discard a monster',
  power: 'Use an associate', 'merge-keep': 'Keep the office', 'merge-remove': 'Remove the office',
};
const MAP_GROUPS = new Set(['build', 'office', 'castle-place', 'power']);

// The board data, by data hash: fetched once per page.
const boards = new Map();
function loadBoard(hash) {
  if (!boards.has(hash)) {
    const p = fetch(`/api/games/18dracula/data?hash=${encodeURIComponent(hash)}`)
      .then((r) => { if (!r.ok) throw new Error(`the server has no board ${hash} (HTTP ${r.status})`); return r.json(); })
      .then((d) => { boards.set(hash, d); return d; }, (err) => { boards.delete(hash); throw err; });
    boards.set(hash, p);
  }
  return boards.get(hash);
}

const HEX_RE = /^[0-9a-f]{16}$/;
const num = (v) => (Number.isFinite(v) ? v : 0);
const at = (arr, i) => (Array.isArray(arr) && i >= 0 && i < arr.length ? arr[i] : undefined);

// The table's own rules: web/games/18dracula.css (web/js/game.js loads them).
export const stylesheet = true;

export function createView(root, ctx) {
  let snap = null;
  let board = null;
  let boardError = '';
  let keys = new Map();
  let mapPlaces = new Map(); // "route:IDX" / "loc:IDX" -> svg node
  const openFolds = new Set(); // folded groups the player opened
  let sheetOpen = true; // the spreadsheet's fold, as the player left it
  const focus = focusKeeper(root, '.move button.action');
  const panes = {
    top: el('section', { class: 'panel d18-top', 'aria-label': 'Phase and stage' }),
    map: el('section', { class: 'panel d18-map', 'aria-label': 'Map' }),
    market: el('section', { class: 'panel d18-market', 'aria-label': 'Market' }),
    fronts: el('section', { class: 'panel d18-fronts', 'aria-label': 'Fronts' }),
    players: el('section', { class: 'panel d18-players', 'aria-label': 'Players' }),
    assoc: el('section', { class: 'panel d18-assoc', 'aria-label': 'Associates, LL and BT' }),
    monsters: el('section', { class: 'panel d18-monsters', 'aria-label': 'Monsters' }),
    sheet: el('section', { class: 'panel d18-sheet', 'aria-label': 'Spreadsheet' }),
    move: el('section', { class: 'panel move', 'aria-label': 'Your move' }),
    log: el('section', { class: 'panel log', 'aria-label': 'Log' }),
  };
  const logView = createLog({ textOf: (t) => named(t) });
  panes.log.append(el('h2', { text: 'Log' }), logView.element);
  fill(root, el('div', { class: 'table d18' },
    el('div', { class: 'd18-board' }, panes.top, panes.map, panes.players, panes.market, panes.sheet, panes.fronts, panes.assoc, panes.monsters),
    el('div', { class: 'side' }, panes.move, panes.log)));

  // --- names in the server's text ----------------------------------------------
  // A label, the prompt, the help or a log line in the player's words: the
  // board's codes of fronts, associates, monsters and places become their
  // names ("start CKG 93" reads "start Crypt Keepers' Guild 93"), and a
  // code in brackets after its name ("Steelclaw (STC)") goes.  Before the
  // board has loaded the text stays as it is.
  let namesOf = null; // {board, re, paired, map}
  // A column of the spreadsheet: the code, as 18XX sheets head their
  // columns, with the name on hover and for screen readers.
  function idCell(id) {
    return el('abbr', { title: named(id), text: id });
  }

  function named(text) {
    const t = String(text === undefined || text === null ? '' : text);
    if (!board) return t;
    if (!namesOf || namesOf.board !== board) {
      const map = new Map();
      for (const list of [board.locations, board.monsters, board.associates, board.fronts]) {
        for (const x of list || []) if (x && /^[A-Z][A-Z0-9]{1,5}$/.test(x.id) && x.name) map.set(x.id, String(x.name));
      }
      const ids = [...map.keys()].sort((a, b) => b.length - a.length).join('|');
      namesOf = ids ? {
        board, map,
        re: new RegExp(`\\b(${ids})\\b`, 'g'),
        paired: new RegExp(` \\((?:${ids})(?:-(?:${ids}))*\\)`, 'g'),
      } : { board, map, re: null, paired: null };
    }
    if (!namesOf.re) return t;
    return t.replace(namesOf.paired, '').replace(namesOf.re, (id) => namesOf.map.get(id) || id);
  }

  // --- names ------------------------------------------------------------------
  const seatName = (p) => (ctx.seatName ? ctx.seatName(p) : `P${p}`);
  function entName(e) {
    if (!board) return `#${e}`;
    if (e >= 0 && e < board.fronts.length) return board.fronts[e].id;
    const enc = board.encoding;
    return e === enc.ent_ll ? 'LL' : e === enc.ent_bt ? 'BT' : `#${e}`;
  }
  function ownerName(o) {
    const enc = board.encoding;
    if (o === enc.unsold) return 'unsold';
    if (o >= enc.own_front) return entName(o - enc.own_front);
    return seatName(o);
  }
  function token(e, x, y, r, label) {
    return svg('g', { class: 'token' },
      svg('circle', { cx: x, cy: y, r, fill: TOKEN[e] || '#333', stroke: '#fff', 'stroke-width': 1.5 }),
      svg('text', { x, y: y + r * 0.38, class: 'token-text', 'font-size': r * 0.95, text: label }));
  }

  // --- the map ---------------------------------------------------------------
  function routeKey(r) {
    const a = board.locations[r.a].id;
    const b = board.locations[r.b].id;
    return [`${a}-${b}`, `${b}-${a}`];
  }
  function placeOf(action) {
    if (!board || !MAP_GROUPS.has(action.group) || !Array.isArray(action.objects)) return null;
    const o = String(action.objects[0] || '');
    if (o.includes('-')) {
      const i = board.routes.findIndex((r) => routeKey(r).includes(o));
      return i >= 0 ? `route:${i}` : null;
    }
    const l = board.locations.findIndex((x) => x.id === o);
    return l >= 0 ? `loc:${l}` : null;
  }

  function drawMap(o) {
    mapPlaces = new Map();
    if (!board) {
      fill(panes.map, el('h2', { text: 'Map' }), el('p', { class: boardError ? 'bad' : 'empty', text: boardError || 'Loading the board…' }));
      return;
    }
    const d = o.display || {};
    const actionsAt = new Map();
    for (const a of snap.actions || []) {
      const p = placeOf(a);
      if (!p) continue;
      if (!actionsAt.has(p)) actionsAt.set(p, []);
      actionsAt.get(p).push(a);
    }
    const locs = board.locations;
    // The drawing's bounds: an off-board's box reaches about 50 past its point.
    const minX = Math.min(0, ...locs.map((l) => l.x - 55));
    const minY = Math.min(0, ...locs.map((l) => l.y - 45));
    const maxX = Math.max(...locs.map((l) => l.x)) + 60;
    const maxY = Math.max(...locs.map((l) => l.y)) + 50;
    const routes = svg('g', { class: 'routes' });
    const places = svg('g', { class: 'places' });
    const enc = board.encoding;
    // the route spaces the last rampage ran over (the update's annals)
    const lastRun = new Set(((snap.annals && snap.annals.last_rampage) || {}).spaces || []);
    board.routes.forEach((r, i) => {
      const a = locs[r.a];
      const b = locs[r.b];
      const cube = num(at(o.cube, i));
      const built = cube !== 0;
      const colour = cube === enc.cube_pre ? null : built ? COLOURS[cube - 1] : r.colour;
      const line = { x1: a.x, y1: a.y, x2: b.x, y2: b.y };
      let desc;
      if (cube === enc.cube_pre) {
        routes.append(svg('line', { ...line, class: 'route pre', stroke: '#3b3b3b', 'stroke-width': 6 }));
        desc = 'connected from the start';
      } else if (built) {
        routes.append(svg('line', { ...line, class: 'route built', stroke: INK[colour] || '#555', 'stroke-width': 7, 'stroke-linecap': 'round' }));
        desc = `${COLOUR_NAME[colour] || ''} cube built`;
      } else {
        routes.append(svg('line', { ...line, class: 'route open', stroke: r.colour ? INK[r.colour] : '#8c8577', 'stroke-width': r.colour ? 4 : 2.5, 'stroke-dasharray': r.colour ? '10 4' : '6 4' }));
        desc = `open${r.colour ? `, ${COLOUR_NAME[r.colour]} only` : ''}${r.cost ? `, costs ${r.cost}` : ''}`;
      }
      if (built && lastRun.has(i)) {
        routes.append(svg('line', { ...line, class: 'route last-run', stroke: '#fff', 'stroke-width': 3, 'stroke-dasharray': '5 4' }));
        desc += ', run by the last rampage';
      }
      const mx = (a.x + b.x) / 2;
      const my = (a.y + b.y) / 2;
      if (!built && r.cost > 0) {
        routes.append(svg('rect', { x: mx - 14, y: my - 8, width: 28, height: 15, rx: 4, class: 'cost-tag' }),
          svg('text', { x: mx, y: my + 4, class: 'cost', text: String(r.cost) }));
      }
      if (num(o.castle) === i && o.stage !== undefined) {
        routes.append(svg('g', { class: 'castle', transform: `translate(${mx - 11} ${my - 24})` },
          svg('title', { text: `The castle, on ${a.name}–${b.name}` }),
          svg('path', { d: 'M0 20 V6 H4 V2 H8 V6 H10 V2 H14 V6 H16 V2 H20 V6 H22 V20 Z', fill: '#2b2b2b', stroke: '#fff', 'stroke-width': 1 })));
      }
      const key = `route:${i}`;
      const acts = actionsAt.get(key) || [];
      const label = `${a.name} to ${b.name}: ${desc}${acts.length ? `. ${acts.map((x) => x.label || x.text).join('; ')}` : ''}`;
      const hit = svg('line', {
        ...line, class: `hit${acts.length ? ' can' : ''}`, 'stroke-width': 14, dataset: { place: key },
        tabindex: acts.length ? 0 : null, role: acts.length ? 'button' : null, 'aria-label': acts.length ? label : null,
      }, svg('title', { text: label }));
      if (acts.length) bindPlace(hit, acts);
      routes.append(hit);
      mapPlaces.set(key, hit);
    });
    locs.forEach((l, i) => {
      const key = `loc:${i}`;
      const acts = actionsAt.get(key) || [];
      const g = svg('g', { class: `loc ${l.kind}${acts.length ? ' can' : ''}`, dataset: { place: key } });
      let label = l.name;
      if (l.kind === 'city') {
        const level = at(d.level, i) || 'Y';
        const rev = at(d.city_revenue, i);
        g.append(svg('circle', { cx: l.x, cy: l.y, r: 15, class: 'city', stroke: INK[level] || '#333' }),
          svg('text', { x: l.x, y: l.y + 4, class: 'rev', text: String(num(rev)) }));
        const n = (l.spaces || []).length;
        const occ = [];
        for (let k = 0; k < n; k++) {
          const who = num(at(o.space_occ, i * 6 + k));
          const sx = l.x + (k - (n - 1) / 2) * 17;
          const sy = l.y - 25;
          g.append(svg('circle', { cx: sx, cy: sy, r: 8, class: 'space', stroke: INK[l.spaces[k]] || '#333' }));
          if (who !== enc.occ_empty && who >= enc.occ_down) {
            g.append(svg('rect', { x: sx - 6, y: sy - 6, width: 12, height: 12, fill: '#777', class: 'church' }));
            occ.push(`a face-down token of ${named(entName(who - enc.occ_down))}`);
          } else if (who !== enc.occ_empty) {
            g.append(token(who, sx, sy, 7.5, entName(who).slice(0, 2)));
            occ.push(`an office of ${named(entName(who))}`);
          }
        }
        label = `${l.name}, city at ${COLOUR_NAME[level] || level} level, revenue ${num(rev)}; ${n} office space${n === 1 ? '' : 's'}${occ.length ? `: ${occ.join(', ')}` : ', all free'}`;
        g.append(svg('text', { x: l.x, y: l.y + 29, class: 'name', text: l.name }));
      } else if (l.kind === 'town') {
        g.append(svg('circle', { cx: l.x, cy: l.y, r: 5, class: 'town' }),
          svg('text', { x: l.x, y: l.y + 16, class: 'name small-name', text: l.name }));
        label = `${l.name}, a town`;
      } else {
        const phase = num(o.phase) || 1;
        const w = Math.max(72, String(l.name).length * 6 + 12, (l.revenue || []).join('·').length * 5.4 + 12);
        g.append(svg('rect', { x: l.x - w / 2, y: l.y - 15, width: w, height: 30, rx: 4, class: 'off' }),
          svg('text', { x: l.x, y: l.y - 3, class: 'off-name', text: l.name }));
        const revs = svg('text', { x: l.x, y: l.y + 10, class: 'off-rev' });
        (l.revenue || []).forEach((v, k) => {
          revs.append(svg('tspan', { class: k + 1 === phase ? 'now' : null, text: `${k ? '·' : ''}${v}` }));
        });
        g.append(revs);
        label = `${l.name}, off-board, revenue ${(l.revenue || []).join(', ')} in phases 1 to 5 (now ${at(l.revenue, phase - 1)})${l.fd ? '; the Flying Dutchman may double it' : ''}`;
      }
      g.prepend(svg('title', { text: label }));
      if (acts.length) {
        g.setAttribute('tabindex', '0');
        g.setAttribute('role', 'button');
        g.setAttribute('aria-label', `${label}. ${acts.map((x) => x.label || x.text).join('; ')}`);
        bindPlace(g, acts);
      }
      places.append(g);
      mapPlaces.set(key, g);
    });
    const map = svg('svg', {
      viewBox: `${minX} ${minY} ${maxX - minX} ${maxY - minY}`, class: 'd18-svg', role: 'group',
      'aria-label': `Map of ${board.title}: ${locs.length} places, ${board.routes.length} route spaces`,
    }, svg('rect', { x: minX, y: minY, width: maxX - minX, height: maxY - minY, class: 'sea' }), routes, places);
    const open = snap.actions && snap.actions.some((a) => placeOf(a));
    fill(panes.map, el('h2', { text: `Map · ${board.title}` }),
      open ? el('p', { class: 'small', text: 'Places you may choose now are outlined: click one, or Tab to it and press Enter.' }) : null,
      el('div', { class: 'map-scroll hscroll' }, map),
      el('p', { class: 'small legend' },
        COLOURS.map((c) => el('span', { class: `swatch sw-${c}`, text: `${COLOUR_NAME[c]} ${num(at(o.supply, COLOURS.indexOf(c)))} left` }))));
  }

  // A place on the map that one or more actions name: one action is taken
  // at once; several (a cube or a power) open the choice in the controls.
  function bindPlace(node, acts) {
    const go = () => {
      if (acts.length === 1) { ctx.submit(acts[0]); return; }
      const first = panes.move.querySelector(`[data-action="${acts[0].id}"]`);
      for (const a of acts) highlight(`${placeOf(a)}`, true);
      if (first) first.focus();
    };
    node.addEventListener('click', go);
    node.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); e.stopPropagation(); go(); }
    });
  }
  function highlight(place, on) {
    for (const node of mapPlaces.values()) node.classList.remove('hl');
    const node = place && mapPlaces.get(place);
    if (node && on) node.classList.add('hl');
  }

  // --- phase, stage, bank ------------------------------------------------------
  function drawTop(o) {
    if (!board) { fill(panes.top, el('h2', { text: '18Dracula' })); return; }
    const enc = board.encoding;
    const phase = num(o.phase) || 1;
    const stage = enc.stages[num(o.stage)] || '?';
    let where = stage;
    if (num(o.stage) === enc.stage_over) where = `Game over: ${enc.ends[num(o.end_reason)] || 'ended'}`;
    else if (o.op_ent >= 0) {
      const step = enc.or_steps[num(o.or_step)] || '';
      where = `Operating round ${num(o.ors_played)} (${num(o.or_no) + 1} of ${num(o.ors_in_set)} in this set) · ${named(entName(o.op_ent))} operates: ${step}`;
      if (num(o.stage) !== enc.stage_or) where += ` · ${stage}`;
    } else if (stage === 'stock round' || stage === 'associate offer') where = `Stock round ${num(o.sr_no)}${stage === 'associate offer' ? ' · an associate is offered' : ''}`;
    const track = el('ol', { class: 'phases', 'aria-label': 'Phases' });
    for (let p = 1; p <= 5; p++) {
      const sales = at(board.sales, p - 1);
      track.append(el('li', { class: p === phase ? 'now' : p < phase ? 'past' : '' },
        el('strong', { text: `Phase ${p}` }),
        el('span', { text: `limit ${at(board.limit, p - 1)} · ${at(board.ors, p - 1)} OR${at(board.ors, p - 1) === 1 ? '' : 's'}` }),
        p === phase && p < 5 ? el('span', { class: 'tracker', text: `tracker ${num(o.tracker)}/${sales}` }) : null));
    }
    fill(panes.top,
      el('h2', { text: where }),
      track,
      el('p', { class: 'small' },
        `Bank ${num(o.bank)}${o.broke_when ? ' (broken)' : ''} · cubes in supply: `,
        COLOURS.map((c, k) => `${k ? ', ' : ''}${COLOUR_NAME[c]} ${num(at(o.supply, k))}`).join(''),
        o.revenue && o.op_ent >= 0 ? ` · revenue this rampage ${o.revenue}` : ''));
  }

  // --- players ------------------------------------------------------------------
  function drawPlayers(o) {
    if (!board) { fill(panes.players); return; }
    const d = o.display || {};
    const np = num(o.np);
    const list = el('div', { class: 'seat-list' });
    const order = Array.isArray(o.seat_at) ? o.seat_at.slice(0, np) : [];
    const seats = order.length === np && order.every((x) => x >= 0 && x < np) ? order : [...Array(np).keys()];
    for (const p of seats) {
      const held = [];
      board.fronts.forEach((f, k) => {
        const n = num(at(o.held, k * 6 + p));
        if (n) held.push(`${f.name} ${n * 10}%${o.pres[k] === p ? ' (President)' : ''}`);
      });
      const assocs = board.associates.filter((a, k) => at(o.assoc_owner, k) === p).map((a) => a.name);
      const acting = snap.toActSeat === p;
      list.append(el('div', { class: `seat${p === snap.seat ? ' me' : ''}${acting ? ' acting' : ''}`, dataset: { seat: p } },
        el('h3', { text: `${seatName(p)}${p === snap.seat ? ' (you)' : ''}${o.priority === p ? ' · priority' : ''}${o.bankrupt === p ? ' · bankrupt' : ''}` }),
        el('p', { class: 'counts' },
          el('strong', { class: 'cash', text: `${num(at(o.cash, p))} pts` }),
          ` · certificates ${num(at(d.certs, p))}/${num(d.cert_limit)} · worth ${num(at(d.worth, p))} (cash and shares)`),
        el('p', { class: 'small', text: held.length ? held.join(', ') : 'no shares' }),
        assocs.length ? el('p', { class: 'small', text: `Associates: ${assocs.join(', ')}` }) : null));
    }
    fill(panes.players, el('h2', { text: 'Players' }), list);
  }

  // --- the spreadsheet -------------------------------------------------------------
  // As 18XX players know it: players against the started fronts (shares
  // held, the President starred), each player's cash, certificates against
  // the limit and worth; the fronts' IPO, market, par, price and treasury;
  // then every operating round's revenue per entity, paid out (p), withheld
  // (w) or split (s, LL and BT), and the share price after; and the last
  // rampage's routes.  The numbers come from the observation and its
  // `display`, the history from the update's `annals` (the server folds them
  // from the game's record): nothing is recomputed here.
  function drawSheet(o, annals) {
    if (!board) { fill(panes.sheet); return; }
    const d = o.display || {};
    const np = num(o.np);
    const started = board.fronts.map((f, k) => k).filter((k) => at(o.pres, k) >= 0);
    const head = el('tr', {}, el('th', { scope: 'col', text: '' }),
      ['Cash', 'Certs', 'Worth'].map((h) => el('th', { scope: 'col', text: h })),
      started.map((k) => el('th', { scope: 'col' }, idCell(board.fronts[k].id))));
    const rows = [];
    for (let p = 0; p < np; p++) {
      const certs = num(at(d.certs, p));
      rows.push(el('tr', { class: p === snap.seat ? 'me' : '', dataset: { seat: p } },
        el('th', { scope: 'row', text: seatName(p) }),
        el('td', { class: 'cash', text: String(num(at(o.cash, p))) }),
        el('td', { class: certs > num(d.cert_limit) ? 'certs over' : 'certs', text: `${certs}/${num(d.cert_limit)}` }),
        el('td', { class: 'worth', text: String(num(at(d.worth, p))) }),
        started.map((k) => {
          const n = num(at(o.held, k * 6 + p));
          return el('td', { class: at(o.pres, k) === p ? 'pres' : n ? '' : 'none', text: n ? `${n}${at(o.pres, k) === p ? '*' : ''}` : '·' });
        })));
    }
    const lines = [
      ['IPO', (k) => num(at(o.ipo, k))], ['Market', (k) => num(at(o.pool, k))], ['Par', (k) => num(at(d.par, k))],
      ['Price', (k) => num(at(d.price, k))], ['Treasury', (k) => num(at(o.treasury, k))],
    ];
    for (const [name, f] of lines) {
      rows.push(el('tr', { class: 'front-line' }, el('th', { scope: 'row', text: name }), el('td', { colspan: 3 }),
        started.map((k) => el('td', { text: String(f(k)) }))));
    }
    const body = [];
    body.push(started.length
      ? el('div', { class: 'sheet-scroll' }, el('table', { class: 'sheet-table players-sheet', 'aria-label': 'Players and fronts: shares held (* the President), cash, certificates, worth' },
        el('thead', {}, head), el('tbody', {}, rows)))
      : el('p', { text: `No front has started yet. Cash: ${[...Array(np).keys()].map((p) => `${seatName(p)} ${num(at(o.cash, p))}`).join(', ')}.` }));
    // the operating rounds: one row a round, one column an entity
    const hist = annals && Array.isArray(annals.history) ? annals.history : [];
    if (hist.length) {
      const FATE = { paid: 'p', withheld: 'w', split: 's', pending: '?' };
      const rounds = []; // [label, Map(entity -> row)], in order
      const cursor = hist.map(() => 0);
      for (;;) {
        // the next round: the earliest unread row of any entity (rows are in order)
        let best = -1;
        hist.forEach((h, j) => { if (cursor[j] < h.rows.length && (best < 0 || cmpRow(h.rows[cursor[j]], hist[best].rows[cursor[best]]) < 0)) best = j; });
        if (best < 0) break;
        const key = hist[best].rows[cursor[best]];
        const cells = new Map();
        hist.forEach((h, j) => { if (cursor[j] < h.rows.length && cmpRow(h.rows[cursor[j]], key) === 0) cells.set(j, h.rows[cursor[j]++]); });
        rounds.push([key.or, cells]);
      }
      body.push(el('h3', { text: 'Operating rounds' }),
        el('p', { class: 'small', text: 'Revenue, then p paid out, w withheld, s split (LL and BT), ? not decided yet; then the share price after.' }),
        el('div', { class: 'sheet-scroll' }, el('table', { class: 'sheet-table or-sheet', 'aria-label': 'Operating rounds' },
          el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: 'OR' }), hist.map((h) => el('th', { scope: 'col' }, idCell(h.id))))),
          el('tbody', {}, rounds.map(([label, cells]) => el('tr', {}, el('th', { scope: 'row', text: label }),
            hist.map((h, j) => {
              const r = cells.get(j);
              if (!r) return el('td', { text: '' });
              return el('td', { class: `fate-${r.fate}`, title: `${named(h.id)}: ${r.revenue} ${r.fate}${r.per_share ? ` (${r.per_share} a share)` : ''}${r.price ? `, price ${r.price}` : ''}`,
                text: `${r.revenue}${FATE[r.fate] || '?'}${r.price ? ` ${r.price}` : ''}` });
            })))))));
    } else body.push(el('p', { class: 'small', text: 'Nobody has operated yet.' }));
    const last = annals && annals.last_rampage;
    if (last) {
      body.push(el('h3', { text: 'The last rampage' }),
        el('p', { class: 'last-rampage', text: `${named(last.id)} earned ${num(last.revenue)} (${last.at && last.at.or_in_set ? `OR ${last.at.or}` : 'in the auction'})${last.spaces && last.spaces.length ? '; its routes are dashed white on the map' : ''}.` }),
        el('ul', { class: 'small routes-run' }, (last.routes || []).map((t) => el('li', { text: named(t) }))));
    }
    fill(panes.sheet, el('h2', { text: 'Spreadsheet' }), el('details', { class: 'sheet', open: sheetOpen, ontoggle: (e) => { sheetOpen = e.target.open; } },
      el('summary', { text: 'Players against fronts, the operating rounds, the last rampage' }), body));
  }
  // Rounds in order (the annals number them).
  function cmpRow(x, y) {
    return num(x.round) - num(y.round);
  }

  // --- market -------------------------------------------------------------------
  function drawMarket(o) {
    if (!board) { fill(panes.market); return; }
    const m = board.market;
    const here = new Map(); // "r,c" -> fronts, top of the stack first
    board.fronts.forEach((f, k) => {
      if (!(at(o.pres, k) >= 0)) return;
      const key = `${at(o.mrow, k)},${at(o.mcol, k)}`;
      if (!here.has(key)) here.set(key, []);
      here.get(key).push(k);
    });
    for (const list of here.values()) list.sort((x, y) => num(at(o.mseq, x)) - num(at(o.mseq, y)));
    const rows = [];
    for (let r = 0; r < m.rows; r++) {
      const cells = [];
      for (let c = 0; c < m.cols; c++) {
        const cell = m.cells[r][c];
        if (!cell) { cells.push(el('td', { class: 'none' })); continue; }
        const fs = here.get(`${r},${c}`) || [];
        cells.push(el('td', { class: `zone-${cssToken(cell.zone)}${cell.par ? ' par' : ''}`, title: `${cell.price}${cell.par ? ' (par)' : ''}` },
          el('span', { class: 'price', text: String(cell.price) }),
          fs.map((k) => el('span', { class: `mk front-${k}`, text: board.fronts[k].id, title: board.fronts[k].name }))));
      }
      rows.push(el('tr', {}, cells));
    }
    fill(panes.market, el('h2', { text: 'Market' }),
      el('div', { class: 'market-scroll hscroll' }, el('table', { class: 'market-grid', 'aria-label': 'Share prices; markers of the started fronts' }, el('tbody', {}, rows))),
      el('p', { class: 'small', text: 'Par prices are underlined; yellow and orange cells are the market\'s upper zones.' }));
  }

  // --- fronts --------------------------------------------------------------------
  function monstersOf(o, e) {
    const out = [];
    board.monsters.forEach((t) => {
      let n = 0;
      for (let c = t.first_copy; c < t.first_copy + t.copies; c++) if (at(o.mon_at, c) === board.encoding.at_entity + e) n++;
      if (n) out.push(n > 1 ? `${t.name} ×${n}` : t.name);
    });
    return out;
  }
  function drawFronts(o) {
    if (!board) { fill(panes.fronts); return; }
    const d = o.display || {};
    const cards = [];
    const idle = [];
    board.fronts.forEach((f, k) => {
      if (!(at(o.pres, k) >= 0)) { idle.push(f.id); return; }
      const mons = monstersOf(o, k);
      const assocs = board.associates.filter((a, i) => at(o.assoc_owner, i) === board.encoding.own_front + k).map((a) => a.id);
      const left = f.office_cost.length - num(at(o.offices_used, k));
      const floated = (num(o.floated) >> k) & 1;
      cards.push(el('div', { class: `charter${o.op_ent === k ? ' acting' : ''}`, dataset: { front: f.id } },
        el('h3', {}, el('span', { class: `mk front-${k}`, text: f.id }), ` ${f.name}`),
        el('p', { class: 'counts' }, el('strong', { text: `treasury ${num(at(o.treasury, k))}` }),
          ` · President ${seatName(o.pres[k])}${floated ? '' : ' · not floated'}`),
        el('p', { class: 'small', text: `Share ${num(at(d.price, k))} (par ${num(at(d.par, k))}, ${at(d.zone, k) || ''} zone) · IPO ${num(at(o.ipo, k))} · market ${num(at(o.pool, k))}` }),
        el('p', { class: 'small', text: `Offices left ${left} of ${f.office_cost.length}${left > 0 ? ` (next costs ${at(f.office_cost, num(at(o.offices_used, k)))})` : ''} · home ${board.locations[f.home].name}` }),
        el('p', { class: 'small', text: `Monsters: ${mons.length ? mons.join(', ') : 'none'}${assocs.length ? ` · associates ${assocs.join(', ')}` : ''}` })));
    });
    fill(panes.fronts, el('h2', { text: 'Fronts' }),
      cards.length ? el('div', { class: 'charters' }, cards) : el('p', { class: 'empty', text: 'No front has started yet.' }),
      idle.length ? el('p', { class: 'small', text: `Not started: ${idle.join(', ')}` }) : null);
  }

  // --- associates, LL, BT -------------------------------------------------------
  function drawAssoc(o) {
    if (!board) { fill(panes.assoc); return; }
    const np = num(o.np);
    const rows = board.associates.map((a, k) => {
      const owner = at(o.assoc_owner, k);
      const closed = (num(o.assoc_closed) >> k) & 1;
      const bids = [];
      for (let p = 0; p < np; p++) {
        const b = num(at(o.bid, k * 6 + p));
        if (b) bids.push(`${seatName(p)} bids ${b}`);
      }
      return el('tr', { class: closed ? 'closed' : '' },
        el('th', { scope: 'row', text: `${a.id} ${a.name}` }),
        el('td', { text: owner === board.encoding.unsold ? `for sale at ${num(at(o.assoc_price_now, k))}` : named(ownerName(owner)) }),
        el('td', { text: closed ? 'closed' : `earns ${a.revenue}` }),
        el('td', { class: 'small', text: bids.join(', ') }));
    });
    const minors = [['LL', board.encoding.ent_ll, 3, 0], ['BT', board.encoding.ent_bt, 4, 1]].map(([id, e, k, i]) => {
      if ((num(o.assoc_closed) >> k) & 1) return el('li', { text: `${id}: merged or closed` });
      const mons = monstersOf(o, e);
      return el('li', {}, el('span', { class: `mk front-${e}`, text: id }),
        ` treasury ${num(at(o.minor_cash, i))} · monsters ${mons.length ? mons.join(', ') : 'none'}`);
    });
    fill(panes.assoc, el('h2', { text: 'Associates' }),
      el('table', { class: 'assoc-table' }, el('tbody', {}, rows)),
      el('ul', { class: 'minors' }, minors));
  }

  // --- monsters ---------------------------------------------------------------------
  function drawMonsters(o) {
    if (!board) { fill(panes.monsters); return; }
    const d = o.display || {};
    const offered = num(d.offered_phase);
    const rows = board.monsters.map((t, k) => {
      const x = at(d.monsters, k) || {};
      const now = t.phase === offered || (t.nurse && num(x.bank) > 0);
      return el('tr', { class: now ? 'now' : num(x.bank) + num(x.market) === 0 ? 'gone' : '' },
        el('th', { scope: 'row', text: t.name }),
        el('td', { text: t.nurse ? 'nurse' : `phase ${t.phase}` }),
        el('td', { text: String(t.price) }),
        el('td', { text: `${t.move}${t.n ? ` ${t.n}` : ''}` }),
        el('td', { text: `bank ${num(x.bank)}${num(x.market) ? ` · market ${x.market}` : ''}` }));
    });
    fill(panes.monsters, el('h2', { text: 'Monsters' }),
      el('details', { class: 'monster-list' }, el('summary', { text: `On offer: phase ${offered} monsters (${rows.length} kinds)` }),
        el('table', { class: 'assoc-table' }, el('thead', {}, el('tr', {}, ['Monster', 'Phase', 'Price', 'Moves', 'Where'].map((h) => el('th', { text: h })))),
          el('tbody', {}, rows))));
  }

  // --- controls --------------------------------------------------------------------
  function menuValue(a) {
    const m = /(\d+)$/.exec(String(a.text || ''));
    return m ? Number(m[1]) : null;
  }
  function drawMove(s) {
    const actions = s.actions || [];
    keys = shortcuts(actions);
    const keyOf = new Map();
    for (const [k, a] of keys) keyOf.set(a.id, k);
    const body = [];
    if (s.over) body.push(el('p', { text: 'The game is over.' }));
    else if (!s.toAct) body.push(el('p', { class: 'waiting', text: Number.isInteger(s.toActSeat) ? `Waiting for ${seatName(s.toActSeat)}…` : 'Waiting…' }));
    if (s.prompt) body.push(el('p', { class: 'prompt', text: named(s.prompt) }));
    const wide = typeof window.matchMedia !== 'function' || window.matchMedia('(min-width: 761px)').matches;
    if (s.help) body.push(el('details', { class: 'help', open: wide }, el('summary', { text: 'Help' }), el('p', { text: named(s.help) })));
    const box = el('div', { class: 'actions' });
    const groups = new Map();
    for (const a of displayOrder(actions)) {
      if (!groups.has(a.group)) groups.set(a.group, []);
      groups.get(a.group).push(a);
    }
    for (const [group, list] of groups) {
      const set = el('fieldset', { class: 'action-group', dataset: { group } }, el('legend', { text: TITLES[group] || group }));
      // Amount actions: per object, the menu's amounts as buttons and a field for any other.
      const byObject = new Map();
      for (const a of list) {
        const k = a.amount ? `${(a.objects || []).join(' ')}` : `#${a.id}`;
        if (!byObject.has(k)) byObject.set(k, []);
        byObject.get(k).push(a);
      }
      for (const [, acts] of byObject) {
        for (const a of acts) {
          const plain = { ...a, label: named(a.label || a.text) };
          delete plain.amount;
          const b = actionButton(plain, (x) => ctx.submit(a), keyOf.get(a.id));
          const place = placeOf(a);
          if (place) {
            b.addEventListener('mouseenter', () => highlight(place, true));
            b.addEventListener('mouseleave', () => highlight(place, false));
            b.addEventListener('focus', () => highlight(place, true));
            b.addEventListener('blur', () => highlight(place, false));
          }
          set.appendChild(b);
        }
        const a = acts[0];
        if (a.amount && Number.isInteger(a.amount.min) && Number.isInteger(a.amount.max)) {
          const menu = acts.map(menuValue).filter((v) => v !== null);
          const input = el('input', {
            type: 'number', min: a.amount.min, max: a.amount.max, step: a.amount.step || 1,
            value: menu.length ? menu[0] : a.amount.min, inputmode: 'numeric',
            'aria-label': `Another amount for ${(a.objects || []).join(' ') || group}, from ${a.amount.min} to ${a.amount.max}`,
            dataset: { key: `amount-${group}-${(a.objects || []).join('-')}` },
          });
          const go = el('button', {
            type: 'button', class: `action other-amount group-${cssToken(group)}`, text: 'This amount',
            dataset: { key: `amount-go-${group}-${(a.objects || []).join('-')}` },
            onclick: () => {
              const v = Number(input.value);
              const problem = amountProblem(a, v);
              if (problem) {
                input.setCustomValidity(problem);
                input.reportValidity();
                return;
              }
              input.setCustomValidity('');
              const exact = acts.find((x) => menuValue(x) === v);
              if (exact) ctx.submit(exact);
              else ctx.submit(a, v);
            },
          });
          input.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); e.stopPropagation(); go.click(); } });
          set.appendChild(el('span', { class: 'amount-action' },
            el('span', { class: 'small', text: `${a.amount.min}–${a.amount.max}: ` }), input, go));
        }
      }
      // A long list (40 ways to start a front) folds on a phone, so the
      // map stays near the top; the player opens it with one tap.
      if (list.length > 8 && !wide) {
        const key = `fold-${group}`;
        box.appendChild(el('details', { class: 'action-fold', open: openFolds.has(key), ontoggle: (e) => { if (e.target.open) openFolds.add(key); else openFolds.delete(key); } },
          el('summary', { text: `${TITLES[group] || group} (${list.length} choices)` }), set));
      } else box.appendChild(set);
    }
    body.push(box);
    fill(panes.move, el('h2', { text: s.toAct ? 'Your move' : s.over ? 'Game over' : 'Not your turn' }), body);
  }

  function draw() {
    const s = snap;
    const o = s.obs || {};
    focus.save();
    drawTop(o);
    drawMap(o);
    drawPlayers(o);
    drawMarket(o);
    drawFronts(o);
    drawAssoc(o);
    drawMonsters(o);
    drawSheet(o, s.annals);
    drawMove(s);
    logView.update(s.log || []);
    focus.restore();
    scrollCues(root);
  }

  function render(s) {
    const o = s.obs || {};
    if (o.game !== '18dracula' || !Array.isArray(o.cash)) throw new Error('not an 18Dracula observation');
    snap = { ...s, toActSeat: Number.isInteger(s.toActSeat) ? s.toActSeat : actorOf(o) };
    const hash = String(o.data_hash || '');
    if (!board || board.data_hash !== hash) {
      const cached = boards.get(hash);
      if (cached && !(cached instanceof Promise)) board = cached;
      else if (HEX_RE.test(hash)) {
        board = null;
        loadBoard(hash).then((d) => { board = d; boardError = ''; logView.redraw(); if (snap) draw(); },
          (err) => { boardError = `The board could not be loaded: ${err.message}`; if (snap) draw(); });
      } else boardError = 'The observation names no board.';
    }
    draw();
  }

  // The seat to decide, as far as the observation tells it (the update's
  // to_act is the server's; the view shows whose turn it is from both).
  function actorOf(o) {
    return Number.isInteger(o.actor) && o.actor >= 0 && board && o.stage !== board.encoding.stage_over && o.op_ent < 0 ? o.actor
      : Number.isInteger(o.display && o.display.op_owner) && o.display.op_owner >= 0 ? o.display.op_owner : null;
  }

  return { render, keys: () => keys, words: (t) => named(t) };
}

// The replay viewer's line for one step: the phase and the round.
export function replaySummary(events, step) {
  let round = null;
  for (let i = step; i >= 0 && !round; i--) {
    const x = events[i];
    if (x && (x.kind === 'operating_round' || x.kind === 'stock_round')) round = x;
  }
  return el('div', { class: 'replay-summary' }, el('p', { text: round ? round.text || '' : '' }));
}
