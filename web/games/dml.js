// games/dml.js: the Dragon's Money Laundering table, seen from one seat.
//
// It draws only what the seat's observation JSON holds (docs/clients.md,
// "Observation JSON (DML)") and the derived `display` fields the engine
// computes, so no rule is recomputed here: Values, the Event's effects and
// the chance of a roll all come from the server.  The page shows, top to
// bottom: the Round and the Event in force, the player's own Hand and
// Merchant King, every seat (Fronts of Emblems, card counts, Victory Points,
// the cards of their Hands this seat knows), the Stocks with their current
// Values, the buying area with its target and chances, the dice as they
// fall, the Stack, the Black Markets, Deck / Discard / Nest / Exile; beside
// it the controls and the log.
//
// Cards that a legal action refers to are buttons: clicking one in the Hand
// (or a Stock, a Front, a Black Market) picks its action, or, when the card
// has several (Power, Emblem, plain choice), shows them beside the card.
// Multi-card choices (a Declaration, a commit, a Seize offer, a Stack play)
// are built a card at a time and closed with the Confirm button (`done`);
// the cards chosen so far are marked, and Undo takes the last one back.
//
// The server's words (labels, prompt, help, Event, dice, log) are shown with
// cards and Black Markets by name (`named`), and a box on every seat's
// table passes the Seize offers of the rest of a Round (`autoPassControl`).
import { el, fill, focusKeeper } from '../js/dom.js';
import { actionControls, actionButton, shortcuts } from '../js/actions.js';
import { createLog } from '../js/log.js';
import { die } from '../js/dice.js';

const SUITS = {
  S: { name: 'Iron', symbol: '♠' },
  C: { name: 'Wood', symbol: '♣' },
  H: { name: 'Slaves', symbol: '♥' },
  D: { name: 'Spice', symbol: '♦' },
};
const SUIT_ORDER = ['S', 'C', 'H', 'D'];

// The faces of the court cards (printed on the cards; the rules are the
// engine's).  Number cards are "<Commodity> <rank>".
const COURT = {
  TS: 'Iron Guild', TC: 'Wood Guild', TH: 'Slave Guild', TD: 'Spice Guild',
  JS: 'Grand Inquisitor of Commerce', JC: 'Vice Minister of Reclamations',
  JH: 'Prime Counsellor of Confiscations', JD: 'Supreme Secretary of Tithes',
  QS: 'Dragon Empress of Khitamar Wastelands', QC: 'Harlot Queen of Port Smårgon',
  QH: 'Pampered Heiress of Silver Sanctum', QD: 'Archduchess of Avarice Provinces',
  KS: 'Iron King', KC: 'Wood King', KH: 'Slave King', KD: 'Spice King',
  AS: 'Black Egg', AC: 'Blue Egg', AH: 'Red Egg', AD: 'Gold Egg',
  X1: 'Joker', X2: 'Joker',
};

// How a game ended (the observation's end_reason).
const END_REASON = {
  vp: 'the most Victory Points',
  monopoly: 'a Monopoly',
  father: 'Father of Dragons: all four Dragon Eggs in one Hand',
  last: 'the last player standing',
};

const CODE_RE = /^([2-9TJQKA][SCHD]|X[12])$/;

// The names of the game's edition (DML-2015: display.names, "JC": "Rogue
// Jester"), set by the table each time it draws; null: the 2016 names.
let editionNames = null;
export function setEditionNames(names) {
  editionNames = names && typeof names === 'object' ? names : null;
}

export function cardName(code) {
  if (!CODE_RE.test(code)) return String(code);
  if (editionNames && typeof editionNames[code] === 'string') return editionNames[code];
  if (COURT[code]) return COURT[code];
  return `${SUITS[code[1]].name} ${code[0]}`;
}

// A line of the server's text (a label, the prompt, the help, the log) in
// the player's words: each card code becomes the card's name ("Declare 4C
// as a target" reads "Declare Wood 4 as a target"; "QC (Harlot Queen...)"
// the name once), each Black Market's code its name.  The codes stay in the
// notation (a control's tooltip, the Text table).
const CODE_IN_TEXT = /\b([2-9TJQKA][SCHD]|X[12])\b( \(([^()]*)\))?/g;
export function named(text) {
  return String(text === undefined || text === null ? '' : text)
    .replace(/\bX[12], a Joker,/g, 'a Joker')
    .replace(/\bBlack Market BM(\d)\b/g, 'Black Market $1')
    .replace(/\bBM(\d)\b/g, 'Black Market $1')
    .replace(CODE_IN_TEXT, (all, code, paren, inner) => {
      const name = cardName(code);
      return inner === name ? name : `${name}${paren || ''}`;
    });
}

// Group headings, in the player's words.  Market options share one box.
const TITLES = {
  card: 'Choose a card',
  power: 'Play a card from your Hand as a Power',
  emblem: 'Play a card from your Hand as an Emblem',
  callback: 'Callback one of your Emblems (roll against 7)',
  visit: 'Visit a Black Market (roll against 7)',
  'counsel-market': 'Search a Black Market',
  player: 'Choose a player',
  stock: 'Take a Stock',
  market: 'Market options',
  done: 'Confirm',
  undo: 'Take back',
  dabo: 'Dabo!',
  thief: 'Thief',
  pile: 'Choose a face-down pile (a 2 and a 3)',
  wager: 'Wager cards on the Black Market attempt',
  suit: 'Name a suit for the Troublesome Blabbermouth',
};
const SECTION = {
  buy: 'market', play: 'market', substitute: 'market', nothing: 'market', end: 'market',
  reroll: 'dabo', keep: 'dabo', give: 'thief', take: 'thief',
};
// Groups whose actions carry a card: they are also drawn on the cards.
const CARD_GROUPS = new Set(['card', 'power', 'emblem', 'callback']);


function pct(p) {
  return typeof p === 'number' ? `${Math.round(p * 100)}%` : '?';
}

function seatIndex(s) {
  const m = /^P([0-9])$/.exec(String(s));
  return m ? Number(m[1]) : -1;
}

// The table's own rules: web/games/dml.css (web/js/game.js loads them).
export const stylesheet = true;

export function createView(root, ctx) {
  let chosen = null; // the card whose several actions are shown beside it
  let lastDice = ''; // the roll and check drawn last: a new roll animates, nothing else redraws
  let keys = new Map();
  let snap = null;
  let marks = new Map(); // card -> why it is marked (chosenCards)
  let helpOpen = false; // on a phone, the player opened the help
  // "Pass every Seize offer this Round": the Round it was set for (null:
  // off), and the decision it last passed (one pass per decision).
  let autoPassRound = null;
  let autoPassed = null;
  const focus = focusKeeper(root, '.move button.action');

  const panes = {
    top: el('section', { class: 'panel dml-top', 'aria-label': 'Round and Event' }),
    seats: el('section', { class: 'panel dml-seats', 'aria-label': 'Players' }),
    stocks: el('section', { class: 'panel dml-stocks', 'aria-label': 'Stocks' }),
    markets: el('section', { class: 'panel dml-markets', 'aria-label': 'Black Markets' }),
    piles: el('section', { class: 'panel dml-piles', 'aria-label': 'Deck, Discard and Nest' }),
    stack: el('section', { class: 'panel dml-stack', 'aria-label': 'Stack' }),
    buying: el('section', { class: 'panel dml-buying', 'aria-label': 'Buying' }),
    dice: el('section', { class: 'panel dml-dice', 'aria-label': 'Dice', 'aria-live': 'polite' }),
    mine: el('section', { class: 'panel dml-mine', 'aria-label': 'Your Hand' }),
    move: el('section', { class: 'panel move', 'aria-label': 'Your move' }),
    log: el('section', { class: 'panel log', 'aria-label': 'Log' }),
  };
  const logView = createLog({ textOf: named });
  panes.log.append(el('h2', { text: 'Log' }), logView.element);
  fill(root, el('div', { class: 'table dml' },
    el('div', { class: 'dml-board' }, panes.top, panes.mine, panes.seats, panes.stocks, panes.buying,
      panes.dice, panes.stack, panes.markets, panes.piles),
    el('div', { class: 'side' }, panes.move, panes.log)));

  // --- cards ---------------------------------------------------------------
  function cardActions(code) {
    return (snap.actions || []).filter((a) => CARD_GROUPS.has(a.group)
      && Array.isArray(a.objects) && a.objects[0] === code);
  }

  // One card.  Playable cards are buttons; the rest are plain boxes.
  function card(code, opts = {}) {
    const known = CODE_RE.test(code);
    const suit = known && code[0] !== 'X' ? code[1] : 'X';
    const rank = !known ? '?' : code[0] === 'X' ? '★' : code[0] === 'T' ? '10' : code[0];
    const v = known && snap.obs.display && snap.obs.display.values ? snap.obs.display.values[code] : null;
    const acts = known && opts.actionable !== false ? cardActions(code) : [];
    const classes = ['card', `suit-${suit}`];
    if (acts.length) classes.push('playable');
    if (opts.marked) classes.push('marked');
    if (v && v.commit_ok === false) classes.push('filtered');
    let valueText = '';
    if (v && v.value !== undefined && v.value !== null) {
      valueText = v.printed !== null && v.printed !== undefined && v.printed !== v.value
        ? `${v.value} (printed ${v.printed})` : String(v.value);
    }
    const label = `${known ? cardName(code) : 'a hidden card'}${valueText ? `, Value ${valueText}` : ''}`
      + `${opts.marked ? `, ${opts.marked}` : ''}${v && v.commit_ok === false ? ', may not be committed under this Event' : ''}`;
    const face = [
      el('span', { class: 'rank', text: rank }),
      el('span', { class: 'suit', 'aria-hidden': 'true', text: suit === 'X' ? '' : SUITS[suit].symbol }),
      v && v.value !== null && v.value !== undefined && v.as === 'target'
        ? el('span', { class: 'value', text: String(v.value) }) : null,
      el('span', { class: 'name', text: known ? cardName(code) : '' }),
    ];
    const data = known ? { card: code } : {};
    if (!acts.length) return el('span', { class: classes.join(' '), title: label, role: 'img', 'aria-label': label, dataset: data }, face);
    return el('button', {
      type: 'button', class: classes.join(' '), title: label, 'aria-label': `${label}: ${acts.map((a) => named(a.label || a.text)).join(' or ')}`,
      dataset: { ...data, key: `card-${opts.where || ''}-${code}`, actions: acts.map((a) => a.id).join(' ') },
      onclick: () => {
        if (acts.length === 1) { chosen = null; ctx.submit(acts[0]); return; }
        chosen = chosen === code ? null : code;
        render(snap);
        const first = root.querySelector('.card-choices button');
        if (first) first.focus();
      },
    }, face);
  }

  function cards(list, opts = {}) {
    const row = el('div', { class: 'cards' });
    for (const code of list || []) row.appendChild(card(code, { ...opts, marked: opts.mark ? opts.mark(code) : marks.get(code) }));
    if (opts.hidden) for (let i = 0; i < opts.hidden; i++) row.appendChild(card('??'));
    if (!row.childNodes.length) row.appendChild(el('span', { class: 'empty', text: opts.empty || 'none' }));
    return row;
  }

  // The actions of a card with several, drawn under the row it sits in.
  function choices() {
    if (!chosen) return null;
    const acts = cardActions(chosen);
    if (acts.length < 2) return null;
    return el('div', { class: 'card-choices', role: 'group', 'aria-label': `What to do with ${cardName(chosen)}` },
      el('span', { text: `${cardName(chosen)}:` }),
      acts.map((a) => actionButton(wordy(a), () => { chosen = null; ctx.submit(a); })),
      el('button', { type: 'button', class: 'secondary', text: 'Cancel', onclick: () => { chosen = null; render(snap); } }));
  }

  function seatLabel(s) {
    const i = seatIndex(s);
    return ctx.seatName ? ctx.seatName(i, s) : String(s);
  }

  // --- the parts of the table --------------------------------------------
  function drawTop(o) {
    const d = (o.display && o.display.event) || {};
    const ev = o.event || {};
    fill(panes.top,
      o.over ? el('p', { class: 'game-over', text: `Game over: ${o.winner ? `${seatLabel(o.winner)} wins` : 'no winner'}${END_REASON[o.end_reason] ? ` (${END_REASON[o.end_reason]})` : ''}.` }) : null,
      el('div', { class: 'round' },
        el('strong', { text: `Round ${o.round}` }),
        el('span', { text: ` · Dealer ${seatLabel(o.dealer)} · Active Player ${seatLabel(o.active)}` }),
        o.budget ? el('span', { class: 'budget', text: budgetText(o) }) : null),
      el('div', { class: 'event' },
        el('h2', { text: 'Event' }),
        ev.card ? card(ev.card, { actionable: false }) : null,
        !ev.card && !d.name && !ev.type ? el('span', { class: 'empty', text: 'no Event in force' }) : null,
        el('div', { class: 'event-text' },
          el('strong', { text: named(d.name || ev.type || '') }),
          ev.value ? el('span', { text: ` (Event Value ${ev.value})` }) : null,
          Array.isArray(ev.affected) && ev.affected.length
            ? el('p', { text: `Affects ${ev.affected.map(seatLabel).join(', ')}` }) : null,
          d.player_effect ? el('p', { text: named(d.player_effect) }) : null,
          d.market_effect ? el('p', { text: named(d.market_effect) }) : null,
          d.extra_actions ? el('p', { text: `Every player has ${d.extra_actions} extra ${o.display && o.display.budget_names ? o.display.budget_names[0] : 'Action'} this Round.` }) : null)));
  }

  // " · 1 Action, 1 Minor left"; DML-2015 counts Market Actions and the
  // Black Market Action (display.budget_names).
  function budgetText(o) {
    const b = o.budget;
    const names = o.display && Array.isArray(o.display.budget_names) ? o.display.budget_names : null;
    if (names) {
      return ` · ${b.actions} ${names[0]}${b.actions === 1 ? '' : 's'}, ${b.minors} ${names[1]}${b.minors === 1 ? '' : 's'} left`;
    }
    return ` · ${b.actions} Action${b.actions === 1 ? '' : 's'}, ${b.minors} Minor left`;
  }

  // Victory Points: a seat's own as things stand (display.my_vp), the others'
  // only once the end has revealed them (a total would tell their hidden cards).
  function vpText(o, s, i, me) {
    if (o.over && o.end_reason === 'vp' && o.vp && i >= 0) return ` · ${o.vp[i]} VP`;
    if (me && o.display && typeof o.display.my_vp === 'number') return ` · ${o.display.my_vp} VP`;
    return '';
  }

  function drawSeats(o) {
    const list = el('div', { class: 'seat-list' });
    for (const s of o.seats || []) {
      const i = seatIndex(s.seat);
      const me = s.seat === o.seat;
      const acting = !o.over && o.decision && o.decision.actor === s.seat;
      list.appendChild(el('article', {
        class: `seat${me ? ' me' : ''}${acting ? ' acting' : ''}${s.alive ? '' : ' out'}`,
        dataset: { seat: String(s.seat) },
        'aria-label': `${seatLabel(s.seat)}${me ? ' (you)' : ''}`,
      },
      el('h3', {}, el('span', { text: seatLabel(s.seat) }), me ? el('span', { class: 'you', text: ' (you)' }) : null,
        acting ? el('span', { class: 'to-act', text: ' · to act' }) : null,
        s.alive ? null : el('span', { text: ' · out' })),
      el('p', { class: 'counts', text: `Hand ${s.hand_count}${s.offer_count ? ` · offer ${s.offer_count}` : ''}${vpText(o, s, i, me)}` }),
      me ? null : el('div', { class: 'known' },
        s.king ? el('div', {}, el('span', { class: 'small', text: 'Merchant King ' }), card(s.king, { actionable: false })) : null,
        s.hand_known && s.hand_known.length
          ? el('div', {}, el('span', { class: 'small', text: 'Known in their Hand' }), cards(s.hand_known, { actionable: false })) : null,
        s.offer_known && s.offer_known.length
          ? el('div', {}, el('span', { class: 'small', text: 'Known in their offer' }), cards(s.offer_known, { actionable: false })) : null),
      el('div', { class: 'front' }, el('span', { class: 'small', text: 'Front (Emblems) ' }),
        cards(s.front, { where: `front${i}`, empty: 'no Emblems' }))));
    }
    fill(panes.seats, el('h2', { text: 'Players' }), list);
  }

  function drawStocks(o) {
    const row = el('div', { class: 'stocks' });
    for (const s of SUIT_ORDER) {
      const list = (o.stocks && o.stocks[s]) || [];
      row.appendChild(el('div', { class: `stock suit-${s}` },
        el('h3', { text: `${SUITS[s].symbol} ${SUITS[s].name}` }),
        cards(list, { where: `stock${s}`, empty: 'empty' })));
    }
    fill(panes.stocks, el('h2', { text: 'Stocks' }), el('p', { class: 'small', text: 'A number in a corner is the card\'s Value as a target now; a faded card may not be committed under this Event.' }), row);
  }

  function drawMarkets(o) {
    const list = el('div', { class: 'markets' });
    for (const m of o.black_markets || []) {
      const visit = (snap.actions || []).filter((a) => (a.group === 'visit' || a.group === 'counsel-market')
        && Array.isArray(a.objects) && a.objects[0] === `market ${m.label}`);
      list.appendChild(el('div', { class: 'market' },
        el('h3', { text: `Black Market ${m.label}` }),
        el('p', { class: 'counts', text: `${m.count} card${m.count === 1 ? '' : 's'}` }),
        m.known && m.known.length ? [el('span', { class: 'small', text: 'Known inside ' }), cards(m.known, { where: `bm${m.label}` })] : null,
        m.may_contain && m.may_contain.length && m.may_contain.length <= 12
          ? el('p', { class: 'small', text: `May hold: ${m.may_contain.map(cardName).join(', ')}` }) : null,
        visit.map((a) => actionButton(wordy(a), () => ctx.submit(a)))));
    }
    fill(panes.markets, el('h2', { text: 'Black Markets' }),
      list.childNodes.length ? list : el('p', { class: 'empty', text: 'No Black Market yet.' }));
  }

  function drawPiles(o) {
    const d = o.discard || {};
    const piles = (o.display && Array.isArray(o.display.piles)) ? o.display.piles : [];
    fill(panes.piles, el('h2', { text: 'Deck, Discard, Nest' }),
      el('dl', { class: 'piles' },
        el('dt', { text: 'Deck' }), el('dd', { text: `${o.deck_count} cards` }),
        el('dt', { text: 'Discard' }), el('dd', {}, `${d.count || 0} cards`, d.top ? [' · top ', card(d.top, { actionable: false })] : null),
        el('dt', { text: 'Nest' }), el('dd', {}, `${(o.nest && o.nest.count) || 0} cards`,
          o.nest && o.nest.known && o.nest.known.length ? cards(o.nest.known, { actionable: false }) : null),
        el('dt', { text: 'Exile' }), el('dd', { text: `${(o.exile && o.exile.count) || 0} cards${o.exiled_kings && o.exiled_kings.count ? `, ${o.exiled_kings.count} Kings` : ''}` }),
        piles.length ? [el('dt', { text: 'Setup piles' }),
          el('dd', { class: 'setup-piles', text: `${piles.join(' ')} (face down, a 2 and a 3 each)` })] : null));
  }

  function drawStack(o) {
    const list = el('ol', { class: 'stack-list', 'aria-label': 'Stack, bottom to top' });
    for (const s of o.stack || []) {
      list.appendChild(el('li', {}, card(s.card, { actionable: false }),
        el('span', { text: ` ${seatLabel(s.seat)} as ${s.as === 'emblem' ? 'an Emblem' : 'a Power'}` })));
    }
    // DML-2015: every Stack episode is a Character Power Phase (display.cpp)
    const cpp = o.display && o.display.cpp;
    fill(panes.stack, el('h2', { text: cpp ? 'Stack · Character Power Phase' : 'Stack' }),
      list.childNodes.length ? list : el('p', { class: 'empty', text: 'The Stack is empty.' }));
  }

  function drawBuying(o) {
    const b = o.buying || {};
    const rolls = (o.display && o.display.rolls) || [];
    const active = (b.targets && b.targets.length) || (b.commits && b.commits.length) || rolls.length;
    const rows = [];
    if (b.targets && b.targets.length) rows.push(el('div', {}, el('span', { class: 'small', text: 'Targets ' }), cards(b.targets, { actionable: false, mark: () => 'target' })));
    if (b.commits && b.commits.length) rows.push(el('div', {}, el('span', { class: 'small', text: 'Committed ' }), cards(b.commits, { actionable: false, mark: () => 'committed' })));
    if (active && (b.suit || b.value)) {
      rows.push(el('p', { class: 'running', text: `${b.suit && SUITS[b.suit] ? `${SUITS[b.suit].name}: ` : ''}D ${b.D} + P ${b.P} = value ${b.value}${b.target_from ? ` · targets from the ${String(b.target_from).replace(/_/g, ' ')}` : ''}${b.seizer ? ` · seized by ${seatLabel(b.seizer)}` : ''}` }));
    }
    for (const r of rolls) {
      const single = r.single || {};
      const best = r.best_reroll || {};
      rows.push(el('p', { class: `roll-chance${r.pending ? ' pending' : ''}` },
        el('strong', { text: `${r.what}` }),
        ` by ${seatLabel(r.roller)}: needs ${r.target} or more · one roll ${pct(single.p)} (${single.num}/${single.den})`,
        r.reroll_matters ? ` · with the best Dabo! re-roll ${pct(best.p)}` : '',
        r.pending ? ' · rolling now' : ''));
    }
    fill(panes.buying, el('h2', { text: 'Buying' }),
      rows.length ? rows : el('p', { class: 'empty', text: 'No Buy under way.' }));
  }

  function drawDice(log) {
    let roll = null;
    let check = null;
    for (let i = log.length - 1; i >= 0; i--) {
      const e = log[i];
      if (!check && e.kind === 'check') check = e;
      if (e.kind === 'roll') { roll = e; break; }
    }
    // The pane is an ARIA live region: it is redrawn only when a new roll
    // falls or its check is decided, so a screen reader hears each once.
    const key = roll && Array.isArray(roll.dice) ? `${roll.seq}/${check && check.seq > roll.seq ? check.seq : ''}` : 'none';
    if (key === lastDice) return;
    const fresh = !lastDice.startsWith(`${roll ? roll.seq : ''}/`);
    lastDice = key;
    if (key === 'none') {
      fill(panes.dice, el('h2', { text: 'Dice' }), el('p', { class: 'empty', text: 'No roll yet.' }));
      return;
    }
    const dice = roll.dice.filter((d) => Number.isInteger(d) && d >= 1 && d <= 6);
    fill(panes.dice, el('h2', { text: 'Dice' }),
      el('div', { class: `dice${fresh ? ' falling' : ''}`, 'aria-label': `${seatLabel(roll.seat)} rolled ${dice.join(' and ')}` },
        dice.map((d) => die(d))),
      el('p', { text: named(roll.text) }),
      check && check.seq > roll.seq ? el('p', { class: check.success ? 'ok' : 'bad', text: named(check.text) }) : null);
  }

  function drawMine(o) {
    if (!o.seat) {
      fill(panes.mine, el('h2', { text: 'Spectating' }), el('p', { text: 'You watch the public table: nobody\'s Hand is shown.' }));
      return;
    }
    fill(panes.mine, el('h2', { text: 'Your Hand' }),
      cards(o.hand, { where: 'hand', empty: 'empty Hand' }),
      choices(),
      el('div', { class: 'king' }, el('span', { class: 'small', text: 'Merchant King ' }),
        o.king ? card(o.king, { actionable: false }) : el('span', { class: 'empty', text: 'none' })),
      o.offer && o.offer.length ? el('div', {}, el('span', { class: 'small', text: 'Your Seize offer ' }), cards(o.offer, { actionable: false })) : null);
  }

  function drawMove(s) {
    const grouped = (s.actions || []).map((a) => ({ ...wordy(a), group: SECTION[a.group] || a.group }));
    keys = shortcuts(grouped);
    const body = [];
    if (s.over) body.push(el('p', { text: 'The game is over.' }));
    else if (!s.toAct) {
      const d = s.obs.decision || {};
      body.push(el('p', { class: 'waiting', text: d.actor ? `Waiting for ${seatLabel(d.actor)}…` : 'Waiting…' }));
    }
    if (s.prompt) body.push(el('p', { class: 'prompt', text: named(s.prompt) }));
    // The help stays open on a wide screen; on a phone it is one tap away.
    const wide = typeof window.matchMedia !== 'function' || window.matchMedia('(min-width: 761px)').matches;
    if (s.help) body.push(el('details', { class: 'help', open: wide || helpOpen }, el('summary', { text: 'Help', onclick: () => { helpOpen = !helpOpen; } }), el('p', { text: named(s.help) })));
    const y2015 = s.obs && s.obs.display && s.obs.display.edition;
    const titles = y2015 ? { ...TITLES, visit: 'Attempt a Black Market', market: 'Market options (or forfeit)' } : TITLES;
    body.push(actionControls(grouped, (a, amount) => ctx.submit((s.actions || []).find((x) => x.id === a.id) || a, amount), { keys, titles }));
    body.push(autoPassControl(s));
    fill(panes.move, el('h2', { text: s.toAct ? 'Your move' : 'Not your turn' }), body);
  }

  // An action with its label in the player's words (the action itself,
  // with its notation, is what goes to the server).
  function wordy(a) {
    return { ...a, label: named(a.label || a.text) };
  }

  // The Seize shortcut (docs/rulings.md, "Passing Seize offers for a
  // Round"): a box the seat may tick at any time of its game, whatever its
  // Hand holds, so that having it says nothing.  While it is ticked, each
  // Seize offer the seat is asked for this Round is answered with the same
  // pass a click would send (the `pass` action of that decision, no card
  // chosen); the next Round it is off again.
  function autoPassControl(s) {
    const o = s.obs || {};
    if (!o.seat || s.over || !Number.isInteger(s.decision)) return null; // a player's live table only
    const box = el('input', {
      type: 'checkbox', id: 'dml-autopass', checked: autoPassRound !== null && autoPassRound === o.round,
      onchange: (e) => {
        autoPassRound = e.target.checked ? o.round : null;
        autoPass(snap);
      },
    });
    return el('fieldset', { class: 'action-group autopass', dataset: { group: 'autopass' } },
      el('legend', { text: 'Seize offers' }),
      el('label', { for: 'dml-autopass' }, box,
        ` Pass every Seize offer asked of me for the rest of Round ${o.round}`),
      el('p', { class: 'small', text: 'Whatever your Hand holds: the others see the same passes as if you clicked them.' }));
  }

  // Sends the pass of a Seize offer when the box is ticked for this Round
  // and the seat is asked for an offer with no card chosen yet.
  function autoPass(s) {
    const o = (s && s.obs) || {};
    if (autoPassRound !== null && autoPassRound !== o.round) autoPassRound = null;
    if (autoPassRound === null || !s.toAct || s.over) return;
    const d = o.decision || {};
    if (d.kind !== 'offer' || d.actor !== o.seat || (o.offer && o.offer.length)) return;
    const pass = (s.actions || []).find((a) => a.group === 'done' && a.text === 'pass');
    const key = `${s.decision}`;
    if (!pass || autoPassed === key) return;
    autoPassed = key;
    queueMicrotask(() => ctx.submit(pass));
  }

  // The cards of the choice under way, marked wherever they lie: the Buy's
  // targets and commits, the seat's Seize offer, and the choice being
  // composed, which the prompt lists at its end ("...; so far: target 5S,
  // commit 2D", docs/notation.md).
  function chosenCards(o, prompt) {
    const marks = new Map();
    const b = o.buying || {};
    for (const c of b.targets || []) marks.set(c, 'chosen as a target');
    for (const c of b.commits || []) marks.set(c, 'committed');
    for (const c of o.offer || []) marks.set(c, 'in your Seize offer');
    const soFar = /so far: (.*)$/.exec(prompt || '');
    if (soFar) {
      for (const word of soFar[1].split(/[\s,()]+/)) if (CODE_RE.test(word) && !marks.has(word)) marks.set(word, 'chosen so far');
    }
    return marks;
  }

  function render(s) {
    focus.save();
    snap = s;
    const o = s.obs || {};
    setEditionNames(o.display && o.display.names);
    marks = chosenCards(o, s.prompt);
    if (chosen && !cardActions(chosen).length) chosen = null;
    drawTop(o);
    drawSeats(o);
    drawStocks(o);
    drawMarkets(o);
    drawPiles(o);
    drawStack(o);
    drawBuying(o);
    drawDice(s.log || []);
    drawMine(o);
    drawMove(s);
    logView.update(s.log || []);
    focus.restore();
    autoPass(s);
  }

  return { render: (s) => render(s), keys: () => keys, words: named };
}

// The replay viewer's line for step `step` of the log `events`: the Round,
// whose Turn it is and the last dice (js/replay.js calls it when the game's
// view has one).
export function replaySummary(events, step) {
  let round = null;
  let turn = null;
  let roll = null;
  for (let i = step; i >= 0 && !(round && turn && roll); i--) {
    const x = events[i];
    if (!round && x.kind === 'round') round = x;
    if (!turn && x.kind === 'turn') turn = x;
    if (!roll && x.kind === 'roll') roll = x;
  }
  return el('div', { class: 'replay-summary' },
    el('p', { text: [round && round.text, turn && turn.text].filter(Boolean).join(' · ') }),
    roll && Array.isArray(roll.dice)
      ? el('div', { class: 'dice', 'aria-label': roll.text || 'last roll' }, roll.dice.map((d) => die(d))) : null);
}
