// tests/web/run.mjs: the browser client's tests.  Playwright (npm
// playwright-core) drives Debian's Chromium, headless, against a real
// `croupier serve` on a free loopback port with a temporary SQLite file and
// the client from web/.
//
//   node tests/web/run.mjs CROUPIER [SCREENSHOT_DIR]
//
// 1. desktop: the lobby creates a DML game with one human and three bots; the
//    game is played to its end by clicking the controls (some moves by the
//    keyboard's shortcuts); the scoreboard, the lobby's finished list, the
//    statistics and the replay viewer are checked.
// 2. two browser contexts, two humans (one from the lobby, one through its
//    invite link): each sees its own Hand and never a card of the other's;
//    then one hands the seat to a bot and the other resigns.
// 3. phone width (390x844, touch): the lobby and the table fit the width,
//    a move clock shows and the game is played by tapping.
// 4. the generic table: a DML seat and an 18Dracula seat as text, and any
//    registered game without a view of its own (web/games/<name>.js) played
//    by its controls.
// 6. 18Dracula: a human and two bots on the map view (every place of the
//    board drawn at its coordinates, the panels, decisions by clicking, by
//    keys, a typed amount, places chosen on the map by a click and by the
//    keyboard; the running game's replay refused); the same at phone width;
//    a finished game of two bots replayed with the map at every step.
// 5. the server is killed (kill -9) mid-game and started again on the same
//    port and SQLite file: the page reconnects, its log catches up without a
//    gap or a repeat, and the game goes on.
// Every WebSocket message each page sends or receives is validated against
// docs/protocol.schema.json (tests/web/schema.mjs): a field one side adds,
// drops or mistypes without the schema fails the run.
// 7. amounts: the generic table's amount field refuses an amount off the
//    action's step at the field, naming the step, and sends nothing; after
//    that refusal the controls are free and the next move is taken.
// Screenshots go to SCREENSHOT_DIR (default: a temporary directory).
// CR_WEB_ONLY=reconnect (a comma-separated list of desktop, humans, phone,
// generic, reconnect, dracula, dracula-sheet, dracula-phone, dracula-replay, dml-2015,
// amounts, coach, seize) runs only those.
// Exit 0 when all pass, 1 on a failure, 77 (CTest's "skipped") when node's
// playwright-core or /usr/bin/chromium is missing here.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateMessage } from './schema.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const CHROMIUM = process.env.CR_CHROMIUM || '/usr/bin/chromium';
const MAX_CLICKS = 4000; // a DML game against bots asks a human far fewer decisions

const croupier = process.argv[2];
if (!croupier) {
  console.error('usage: node tests/web/run.mjs CROUPIER [SCREENSHOT_DIR]');
  process.exit(2);
}
// CI sets CROUPIER_REQUIRE_WEB=1: there a missing piece is a failure, not a skip.
const SKIP = process.env.CROUPIER_REQUIRE_WEB === '1' ? 1 : 77;
if (!fs.existsSync(CHROMIUM)) {
  console.log(`SKIP: no Chromium at ${CHROMIUM} (Debian: apt-get install chromium)`);
  process.exit(SKIP);
}
let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch {
  console.log('SKIP: playwright-core is not installed (cd tests/web && npm ci)');
  process.exit(SKIP);
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'croupier-web-'));
const shots = process.argv[3] ? path.resolve(process.argv[3]) : path.join(scratch, 'shots');
fs.mkdirSync(shots, { recursive: true });

let failures = 0;
function check(cond, what) {
  if (cond) console.log(`ok   ${what}`);
  else {
    failures++;
    console.log(`FAIL ${what}`);
  }
}

// --- the protocol, as docs/protocol.schema.json writes it -----------------------------
// Every frame of every page's WebSockets, both ways; the problems found.
const wire = { sent: 0, received: 0, problems: [] };
function watchProtocol(page) {
  page.on('websocket', (ws) => {
    const look = (direction, payload) => {
      if (typeof payload !== 'string') return;
      let msg;
      try {
        msg = JSON.parse(payload);
      } catch {
        wire.problems.push(`${direction}: not JSON: ${payload.slice(0, 80)}`);
        return;
      }
      wire[direction === 'client' ? 'sent' : 'received']++;
      const problems = validateMessage(direction, msg);
      if (problems.length) wire.problems.push(`${direction} ${msg.type}: ${problems.slice(0, 3).join('; ')}`);
    };
    ws.on('framesent', (f) => look('client', f.payload));
    ws.on('framereceived', (f) => look('server', f.payload));
  });
}

// --- the server -----------------------------------------------------------------
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function startServer(port = null) {
  if (port === null) port = await freePort();
  const db = path.join(scratch, 'games.sqlite');
  const log = fs.openSync(path.join(scratch, 'server.log'), 'a');
  const proc = spawn(croupier, ['serve', '--listen', `127.0.0.1:${port}`, '--db', `sqlite:${db}`,
    '--web', path.join(ROOT, 'web')], { stdio: ['ignore', log, log] });
  let exited = null;
  proc.on('exit', (code, signal) => { exited = { code, signal }; });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (exited) throw new Error(`croupier serve exited (${JSON.stringify(exited)}); see ${scratch}/server.log`);
    try {
      const res = await fetch(`${base}/`);
      if (res.ok) return { proc, base, port };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  proc.kill('SIGTERM');
  throw new Error('croupier serve did not answer within 10 s');
}

// --- helpers on a page ---------------------------------------------------------------
// Fills the lobby's form: seats[i] is 'me', 'invite', 'human' or a bot spec.
async function createGame(page, base, seats, { game = 'dml', variant = 'full', clock = null, options = {}, hints = false } = {}) {
  await page.goto(`${base}/`);
  await page.waitForSelector('#c-create');
  await page.selectOption('#c-game', game);
  if (variant) await page.selectOption('#c-variant', variant);
  await page.selectOption('#c-players', String(seats.length));
  for (let i = 0; i < seats.length; i++) {
    const kind = ['me', 'invite', 'human'].includes(seats[i]) ? seats[i] : 'bot';
    await page.selectOption(`#c-seat-${i}`, kind);
    if (kind === 'bot') await page.fill(`#c-spec-${i}`, seats[i]);
  }
  for (const [key, value] of Object.entries(options)) await page.selectOption(`#c-opt-${key}`, value);
  if (hints) await page.check('#c-hints');
  if (clock) {
    await page.selectOption('#c-clock', clock.mode);
    await page.fill('#c-minutes', String(clock.minutes));
  }
  await page.click('#c-create');
}

// The cards shown in the player's own Hand.
async function handCards(page) {
  return page.$$eval('.dml-mine .cards > .card[data-card]', (els) => els.map((e) => e.dataset.card));
}

// Clicks a control found a moment ago; false when an update redrew the
// table in between (the caller looks again).
async function clickFresh(handle) {
  try {
    await handle.click({ timeout: 5000 });
    return true;
  } catch (err) {
    if (/not attached|detached|Timeout/.test(String(err && err.message))) return false;
    throw err;
  }
}

// Plays until the scoreboard shows.  Each move clicks one of the legal
// controls (cards on the table included), picked by a seeded generator; every
// `keyEvery`-th move uses its key instead (1-9, Enter).  Returns the moves
// made, and how many of them by a key.
async function playToEnd(page, { seed = 1, keyEvery = 0, onMove = null } = {}) {
  let x = seed >>> 0;
  const rand = (n) => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x % n;
  };
  let moves = 0;
  let keyed = 0;
  let byCard = 0;
  let bySeveral = 0;
  for (let guard = 0; guard < MAX_CLICKS; guard++) {
    const state = await page.waitForFunction(() => {
      const score = document.querySelector('.scoreboard:not([hidden])');
      if (score) return 'over';
      const buttons = [...document.querySelectorAll('.move button.action:not([aria-disabled])')];
      return buttons.length ? 'turn' : false;
    }, null, { timeout: 30000, polling: 50 }).then((h) => h.jsonValue());
    if (state === 'over') return { moves, keyed, byCard, bySeveral };
    const controls = await page.$$('.move button.action:not([aria-disabled])');
    const groups = await Promise.all(controls.map((c) => c.evaluate((b) => b.closest('[data-group]').dataset.group)));
    // Avoid taking back moves (it lengthens the game without end); keep
    // `done` likelier so composed choices close.
    const picks = controls.map((c, i) => ({ c, g: groups[i] })).filter((p) => p.g !== 'undo');
    const pool = picks.length ? picks : controls.map((c, i) => ({ c, g: groups[i] }));
    const done = pool.filter((p) => p.g === 'done');
    // Stack plays are favoured: a card playable as a Power or an Emblem is
    // the table's card with several actions.
    const stack = pool.filter((p) => p.g === 'power' || p.g === 'emblem');
    let pick = stack.length && rand(2) === 0 ? stack[rand(stack.length)]
      : done.length && rand(3) === 0 ? done[0] : pool[rand(pool.length)];
    // Until a card on the table has been clicked once, a control that has
    // its card there is taken first (the game's own seed is the server's,
    // so a short game might otherwise never draw one).
    let firstCard = null;
    if (byCard + bySeveral === 0 && !(keyEvery && moves % keyEvery === keyEvery - 1)) {
      for (const p of pool.filter((q) => CARD_GROUPS.has(q.g))) {
        firstCard = await cardFor(page, p.c);
        if (firstCard) { pick = p; break; }
      }
    }
    const before = await page.evaluate(() => document.querySelector('.log-lines') ? document.querySelector('.log-lines').childElementCount : 0);
    if (onMove) await onMove(moves);
    if (keyEvery && moves % keyEvery === keyEvery - 1) {
      // The digit shortcut of the first non-done, non-undo control.
      const hint = await pick.c.evaluate((b) => (b.querySelector('kbd') ? b.querySelector('kbd').textContent : ''));
      const key = hint === '⏎' ? 'Enter' : hint;
      if (/^([1-9]|Enter|u)$/.test(key)) {
        await page.locator('body').focus();
        await page.keyboard.press(key);
        keyed++;
      } else if (!(await clickFresh(pick.c))) continue;
    } else {
      // Now and then the card on the table is clicked instead of the button:
      // a card with one action plays it, a card with several shows them
      // beside it and the same action is picked there.
      const card = firstCard || (CARD_GROUPS.has(pick.g) && rand(2) === 0 ? await cardFor(page, pick.c) : null);
      if (card && card.several) {
        if (!(await clickFresh(card.handle))) continue;
        const choice = await page.waitForSelector(`.card-choices button[data-action="${card.id}"]`, { timeout: 5000 }).catch(() => null);
        if (!choice || !(await clickFresh(choice))) continue;
        bySeveral++;
      } else if (card) {
        if (!(await clickFresh(card.handle))) continue;
        byCard++;
      } else if (!(await clickFresh(pick.c))) continue;
    }
    moves++;
    // Wait for the answer: the controls change or the game moves on.
    await page.waitForFunction((n) => {
      const busy = document.querySelector('.move button.action[aria-disabled]');
      const lines = document.querySelector('.log-lines') ? document.querySelector('.log-lines').childElementCount : 0;
      return !busy || lines !== n || document.querySelector('.scoreboard:not([hidden])');
    }, before, { timeout: 30000, polling: 50 });
  }
  throw new Error(`no end after ${MAX_CLICKS} moves`);
}

// The card on the table that offers the same action as `button`:
// {handle, id, several} or null.
const CARD_GROUPS = new Set(['card', 'power', 'emblem', 'callback']);
async function cardFor(page, button) {
  const id = await button.evaluate((b) => b.dataset.action);
  for (const handle of await page.$$('.dml-board button.card[data-actions]')) {
    const ids = (await handle.evaluate((b) => b.dataset.actions)).split(' ');
    if (ids.includes(id)) return { handle, id, several: ids.length > 1 };
  }
  return null;
}

// Nothing reaches past the right edge: no horizontal scrolling, and no
// control or card sticks out of the window either (a panel may clip it).
// (A phone widens its layout viewport to fit what overflows, so the width
// is the device's, given here, not window.innerWidth.)
async function noHorizontalScroll(page, width = 390) {
  return page.evaluate((w) => document.documentElement.scrollWidth <= w + 1
    && [...document.querySelectorAll('main button, main select, main input, main .card')]
      .every((e) => e.getBoundingClientRect().right <= w + 1), width);
}

// What player-facing text must not hold (issue 18): references to the rules
// spec ("(spec 12.1)", "(R46)", "§8.5"), and, on DML's table, card and
// Black Market codes ("5S", "X1", "BM2") where names belong.
const SPEC_REF_RE = /\(spec\b|\bspec \d|§|\(R\d+\)|\bR\d{1,3}\b/;
const DML_CODE_RE = /\b([2-9TJQKA][SCHD]|X[12]|BM\d)\b/;
function offending(text, re) {
  return String(text).split('\n').filter((l) => re.test(l));
}
// The text a DML table shows a player (the Text table aside): the board,
// the controls, the help and the log.
async function dmlTableText(page) {
  return page.evaluate(() => [...document.querySelectorAll('main .table.dml, #keys-dialog')].map((x) => x.innerText).join('\n'));
}

// --- the tests ----------------------------------------------------------------------
const launchArgs = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

async function testDesktop(browser, base) {
  console.log('# desktop: one human, three bots, played to the end by clicking');
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`); });
  // The lobby's words for every game, variant and option cite no rule of the spec.
  await page.goto(`${base}/`);
  await page.waitForSelector('#c-create');
  const lobbyRefs = [];
  let lobbyLooks = 0;
  for (const g of await page.$$eval('#c-game option', (os) => os.map((o) => o.value))) {
    await page.selectOption('#c-game', g);
    for (const v of await page.$$eval('#c-variant option', (os) => os.map((o) => o.value))) {
      await page.selectOption('#c-variant', v);
      lobbyRefs.push(...offending(await page.evaluate(() => document.querySelector('main').innerText), SPEC_REF_RE));
      lobbyLooks++;
    }
  }
  check(lobbyLooks >= 3 && lobbyRefs.length === 0, `the lobby's games, variants and options cite no rule (${lobbyLooks} looked at)${lobbyRefs.length ? `: "${lobbyRefs[0]}"` : ''}`);
  await createGame(page, base, ['me', 'random', 'heuristic', 'random']);
  await page.waitForSelector('.table.dml', { timeout: 15000 });
  check(true, 'the lobby made the game and opened the DML table');
  const turnTitle = await page.waitForFunction(() => document.title.startsWith('● Your turn'), null, { timeout: 15000 }).then(() => true, () => false);
  check(turnTitle, 'the page title says "your turn"');
  check(await page.isVisible('#turn-banner'), 'the turn banner shows');
  const shown = (await handCards(page)).length;
  const counted = await page.$eval('.seat.me .counts', (p) => Number((/Hand (\d+)/.exec(p.textContent) || [])[1]));
  check(shown === counted, `the Hand shows the seat's ${counted} cards`);
  // Victory Points: the seat's own as things stand (once dealt its 2 and 3,
  // at least 5; 0 while the roll-off's Dabo! comes before the deal), nobody
  // else's before the end reveals them (issue 18: "0 VP" for all).
  const myVp = await page.$eval('.seat.me .counts', (p) => Number((/(\d+) VP/.exec(p.textContent) || [])[1]));
  check(counted >= 2 ? myVp >= 5 : myVp === 0, `the seat's own Victory Points show (${myVp}, Hand ${counted})`);
  const othersVp = await page.$$eval('.seat:not(.me) .counts', (ps) => ps.filter((p) => / VP/.test(p.textContent)).length);
  check(othersVp === 0, 'no other seat shows Victory Points before the end');
  for (const label of ['Players', 'Stocks', 'Black Markets', 'Deck, Discard, Nest', 'Stack', 'Buying', 'Dice', 'Your Hand', 'Log']) {
    check(await page.isVisible(`section[aria-label="${label}"], section[aria-label="${label === 'Deck, Discard, Nest' ? 'Deck, Discard and Nest' : label}"]`), `the table has its ${label}`);
  }
  // Focus is visible on a control reached by Tab.
  await page.locator('body').focus();
  for (let i = 0; i < 300; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement && document.activeElement.matches('.move button.action'))) break;
  }
  check(await page.evaluate(() => document.activeElement && document.activeElement.matches('.move button.action')), 'Tab reaches the controls');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  check(outline !== 'none', 'a focused control shows its focus');
  // '?' explains the decision at hand (the seat's help, as the table's Help
  // shows it) above the keys; Escape closes it (the focus is back on a control after).
  await page.keyboard.press('?');
  const listed = await page.isVisible('#keys-dialog');
  const helpShown = await page.$eval('#keys-dialog .decision-help', (p) => p.textContent).catch(() => '');
  const helpTable = await page.$eval('.move details.help p', (p) => p.textContent).catch(() => '');
  check(helpShown.length > 20 && helpShown === helpTable, `? explains the decision at hand (${helpShown.length} characters, the table's Help)`);
  check(offending(helpShown, DML_CODE_RE).length === 0 && offending(helpShown, SPEC_REF_RE).length === 0,
    `the help names cards, not codes, and cites no rule${offending(helpShown, DML_CODE_RE).concat(offending(helpShown, SPEC_REF_RE)).slice(0, 1).map((l) => `: ${l}`).join('')}`);
  await page.keyboard.press('Escape');
  check(listed && !(await page.isVisible('#keys-dialog')), '? shows the keys and Escape closes them');
  await page.locator('.move button.action').first().focus();
  // A move made with the keyboard (Space on the focused control): the focus
  // moves on to the next decision's controls once it is the player's turn again.
  await page.evaluate(() => { const li = document.querySelector('.log-lines li'); if (li) li.dataset.mark = 'kept'; });
  await page.keyboard.press('Space');
  const followed = await page.waitForFunction(() => {
    const a = document.activeElement;
    return !document.querySelector('.move button.action[aria-disabled]') && a && a.matches('.move button.action');
  }, null, { timeout: 30000, polling: 50 }).then(() => true, () => false);
  check(followed || await page.isVisible('.scoreboard:not([hidden])'), 'after a move by the keyboard the focus is on the next decision\'s controls');
  check(await page.evaluate(() => !!document.querySelector('.log-lines li[data-mark="kept"]')),
    'the log appends new lines and keeps the old ones (a screen reader hears only what is new)');
  // Every few moves, the table's words: names, not codes; no spec references.
  const codes = [];
  const specs = [];
  let scanned = 0;
  const scan = async () => {
    const text = await dmlTableText(page);
    codes.push(...offending(text, DML_CODE_RE));
    specs.push(...offending(text, SPEC_REF_RE));
    scanned++;
  };
  const { moves, keyed, byCard, bySeveral } = await playToEnd(page, {
    seed: 7,
    keyEvery: 5,
    onMove: async (n) => {
      if (n % 7 === 0) await scan();
      if (n === 25) {
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: path.join(shots, 'dml-desktop-midgame.png'), fullPage: true });
      }
    },
  });
  check(moves > 0, `the game ended after ${moves} moves by the human`);
  await scan();
  check(codes.length === 0, `the table, its controls and its log name cards and Black Markets, not codes (${scanned} looks${codes.length ? `; e.g. "${codes[0]}"` : ''})`);
  check(specs.length === 0, `nothing on the table cites the rules spec${specs.length ? `: "${specs[0]}"` : ''}`);
  for (const g of ['dml', '18dracula']) {
    const guide = await page.evaluate(async (name) => (await fetch(`/api/games/${name}/guide`)).text(), g);
    const refs = offending(guide, SPEC_REF_RE);
    check(guide.length > 1000 && refs.length === 0, `the ${g} guide the page links cites no rule of the spec${refs.length ? `: "${refs[0]}"` : ''}`);
  }
  check(keyed > 0, `${keyed} of them by the keyboard's shortcuts`);
  check(byCard + bySeveral > 0, `${byCard} by clicking a card on the table, ${bySeveral} by a card's own list of actions`);
  await page.waitForSelector('.scoreboard:not([hidden]) table');
  const rows = await page.$$eval('.scoreboard tbody tr', (trs) => trs.length);
  const winners = await page.$$eval('.scoreboard tbody tr.winner', (trs) => trs.length);
  check(rows === 4, 'the scoreboard lists the 4 seats');
  // (A tie in Victory Points that no egg breaks has no winner: then the
  // scoreboard says so and marks nobody.)
  const noWinner = /Winners?: none|no winner/i.test(await page.$eval('.scoreboard', (x) => x.textContent));
  check(winners >= 1 || noWinner, `the scoreboard marks the winner${noWinner ? ' (none: a tie no egg breaks)' : ''}`);
  // A four-player Full Game won by one seat: the winner's Market manipulator
  // (result.achievements) is listed under the scoreboard, once.
  const manipulators = await page.$$eval('.scoreboard .achievements li[data-achievement="market-manipulator"]', (lis) => lis.length);
  check(winners !== 1 || manipulators === 1, `the scoreboard lists the winner's achievements (${manipulators} market-manipulator)`);
  check(!(await page.evaluate(() => document.title.startsWith('●'))), 'the title no longer says "your turn"');
  await page.screenshot({ path: path.join(shots, 'dml-desktop-scoreboard.png'), fullPage: true });
  // The lobby lists the game as finished and counts it; its scoreboard opens from there.
  await page.click('a[href="#/"]');
  await page.waitForSelector('.finished-games li', { timeout: 15000 });
  await page.click('.finished-games li a[href*="watch=1"]');
  const watched = await page.waitForSelector('.scoreboard:not([hidden]) tbody tr', { timeout: 15000 }).then(() => true, () => false);
  check(watched, 'the finished game\'s scoreboard opens from the lobby');
  await page.click('a[href="#/"]');
  await page.waitForSelector('.finished-games li', { timeout: 15000 });
  const statsText = await page.waitForFunction(() => {
    const c = document.querySelector('.stats caption');
    return c ? c.textContent : false;
  }, null, { timeout: 15000 }).then((h) => h.jsonValue(), () => '');
  check(/1 games? played/.test(statsText), `the statistics count the game (${statsText})`);
  // The replay viewer steps through the released log.
  await page.click('.finished-games li a[href*="replay=1"]');
  await page.waitForSelector('.replay-bar', { timeout: 15000 });
  check((await page.textContent('.record-text')).length > 0, 'the replay shows the released record');
  // It opens at the end, drawn with the game's own table; it steps
  // forwards and backwards with the buttons and the keys, and each step
  // shows the table as it was then.
  const stepIs = (re) => page.waitForFunction((src) => new RegExp(src).test(document.querySelector('.step-line').textContent), re.source, { timeout: 15000, polling: 50 }).then(() => true, () => false);
  const tableText = () => page.$eval('.replay-table', (t) => t.textContent);
  check(await stepIs(/^Step (\d+) of \1/) && await page.isVisible('.replay-table .table.dml'), 'the replay opens at the last step, on the DML table');
  const atEnd = await tableText();
  // the last step lists the achievements, as the scoreboard did; the start none
  const endManipulators = await page.$$eval('.replay-achievements li[data-achievement="market-manipulator"]', (lis) => lis.length);
  check(endManipulators === manipulators, `the replay's last step lists the achievements (${endManipulators} market-manipulator, the scoreboard ${manipulators})`);
  await page.click('button[aria-label="First step"]');
  check(await stepIs(/^Step 0 of \d+: the start/), 'First step goes to the start');
  check((await page.$$('.replay-achievements li')).length === 0, 'the start of the replay lists no achievements');
  const atStart = await tableText();
  check(atStart !== atEnd, 'the table at the start is not the table at the end');
  await page.locator('body').focus();
  for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowRight');
  check(await stepIs(/^Step 12 of/), 'the arrow keys step forwards');
  const at12 = await tableText();
  await page.click('button[aria-label="Previous step"]');
  check(await stepIs(/^Step 11 of/), 'Previous step steps backwards');
  const at11 = await tableText();
  await page.click('button[aria-label="Next step"]');
  check(await stepIs(/^Step 12 of/), 'Next step steps forwards again');
  check(at11 !== at12 && await tableText() === at12, 'each step shows its own table, the same one each time it is shown');
  check((await page.$$('.replay-table .move button.action')).length === 0, 'the replayed table has no controls');
  // Another seat's view: its Hand, not ours (at the last step, where each
  // seat holds its own King: early steps may find both Hands still empty).
  await page.click('button[aria-label="Last step"]');
  check(await stepIs(/^Step (\d+) of \1/), 'Last step goes to the end');
  const mine = await page.$eval('.replay-table .dml-mine', (x) => x.textContent);
  await page.selectOption('#replay-view', '1');
  await page.waitForFunction((m) => document.querySelector('.replay-table .dml-mine') && document.querySelector('.replay-table .dml-mine').textContent !== m, mine, { timeout: 15000 }).catch(() => null);
  const theirs = await page.$eval('.replay-table .dml-mine', (x) => x.textContent);
  check(theirs !== mine, 'the view selector shows another seat\'s table (its Hand)');
  await page.selectOption('#replay-view', '');
  await page.waitForFunction(() => /Spectating/.test(document.querySelector('.replay-table .dml-mine').textContent), null, { timeout: 15000 }).catch(() => null);
  check(/Spectating/.test(await page.$eval('.replay-table .dml-mine', (x) => x.textContent)), 'the public view shows no Hand');
  await page.screenshot({ path: path.join(shots, 'dml-replay.png'), fullPage: false });
  check(pageErrors.length === 0, `no script error and no console error (a refused CSP rule included)${pageErrors.length ? `: ${pageErrors[0]}` : ''}`);
  await context.close();
}

// 8. the Seize shortcut (DML): the box "pass every Seize offer for the rest
// of this Round" is on the table whatever the Hand holds; ticked, the page
// answers the Round's Seize offers itself, with the same `act` frame a
// click on Pass sends, and a spectator sees those passes word for word as
// the clicked one.
async function testSeize(browser, base) {
  console.log('# DML: the Seize shortcut passes the Round\'s offers as a click would');
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  const acts = []; // the `act` frames the seat's page sent
  page.on('websocket', (ws) => ws.on('framesent', (f) => {
    try { const m = JSON.parse(f.payload); if (m.type === 'act') acts.push(m); } catch { /* not JSON */ }
  }));
  await createGame(page, base, ['me', 'heuristic', 'heuristic', 'heuristic']);
  await page.waitForSelector('.table.dml', { timeout: 15000 });
  check(await page.isVisible('#dml-autopass'), 'the Seize shortcut is on the table from the start (whatever the Hand holds)');
  const id = /game=([0-9a-f]{32})/.exec(page.url())[1];
  const watchCtx = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const watch = await watchCtx.newPage();
  const seen = new Map(); // seq -> event, as the spectator received them
  watch.on('websocket', (ws) => ws.on('framereceived', (f) => {
    try {
      const m = JSON.parse(f.payload);
      for (const e of (m && Array.isArray(m.events) ? m.events : [])) if (typeof e.seq === 'number') seen.set(e.seq, e);
    } catch { /* not JSON */ }
  }));
  await watch.goto(`${base}/#game=${id}&watch=1`);
  await watch.waitForSelector('.table.dml', { timeout: 15000 });
  let x = 17;
  const rand = (n) => { x = (Math.imul(x, 1664525) + 1013904223) >>> 0; return x % n; };
  const byClick = new Set(); // indices in `acts` of the frames the test's clicks sent
  const click = async (handle) => {
    const k = acts.length;
    if (!(await clickFresh(handle))) return false;
    for (let i = 0; i < 250 && acts.length === k; i++) await page.waitForTimeout(20);
    if (acts.length > k) byClick.add(k);
    return acts.length > k;
  };
  const manual = [];
  let tickedRound = null;
  let resetSeen = false;
  let over = false;
  const automatic = () => acts.filter((m, i) => !byClick.has(i));
  for (let guard = 0; guard < 800; guard++) {
    if (manual.length >= 1 && automatic().length >= 2 && (resetSeen || guard > 400)) break;
    const state = await page.waitForFunction(() => {
      if (document.querySelector('.scoreboard:not([hidden])')) return 'over';
      return document.querySelector('.move button.action:not([aria-disabled])') ? 'turn' : false;
    }, null, { timeout: 30000, polling: 50 }).then((h) => h.jsonValue());
    if (state === 'over') { over = true; break; }
    const round = await page.$eval('.dml-top .round strong', (e) => e.textContent);
    const ticked = await page.isChecked('#dml-autopass');
    if (tickedRound !== null && round !== tickedRound) {
      if (!ticked) resetSeen = true;
      tickedRound = ticked ? round : null;
    }
    const pass = await page.$('.move fieldset[data-group="done"] button.action');
    const passText = pass ? await pass.textContent() : '';
    if (/Pass: make no Seize offer/.test(passText) && ticked) {
      // the page answers by itself: wait for it, then look again
      await page.waitForFunction(() => !document.querySelector('.move button.action:not([aria-disabled])')
        || document.querySelector('.scoreboard:not([hidden])'), null, { timeout: 5000, polling: 50 }).catch(() => null);
      continue;
    }
    if (/Pass: make no Seize offer/.test(passText)) {
      const k = acts.length;
      if (!(await click(pass))) continue;
      manual.push(acts[k]);
      await page.check('#dml-autopass');
      tickedRound = round;
    } else {
      const controls = await page.$$('.move fieldset:not([data-group="undo"]) button.action:not([aria-disabled])');
      if (!controls.length) continue;
      const done = await page.$$('.move fieldset[data-group="done"] button.action:not([aria-disabled])');
      const pick = done.length && rand(3) === 0 ? done[0] : controls[rand(controls.length)];
      if (!(await click(pick))) continue;
    }
    await page.waitForFunction(() => !document.querySelector('.move button.action[aria-disabled]')
      || document.querySelector('.scoreboard:not([hidden])'), null, { timeout: 30000, polling: 50 }).catch(() => null);
  }
  const autos = automatic();
  check(manual.length >= 1, `a Seize offer passed by a click (${manual.length})${over ? '; the game ended' : ''}`);
  check(autos.length >= 1, `${autos.length} Seize offers passed by the ticked box, with no click`);
  // The frames: a pass sent by the box is the frame a click on Pass sends.
  const shape = (m) => Object.keys(m).filter((k) => k !== 'id' && k !== 'decision').sort().join(',');
  const passId = manual.length ? manual[0].action : null;
  check(manual.length >= 1 && autos.every((m) => m.action === passId && shape(m) === shape(manual[0]) && Number.isInteger(m.decision)),
    `every automatic pass went as the clicked pass's frame (${manual.length ? shape(manual[0]) : '?'}, action ${passId})`);
  // What the others see: the spectator's log holds the seat's passes, all in
  // the same words.  (The rules pass for a seat with no Hand, or one the
  // FCCC Regulations bar, in longer words: those are no choice of P0's and
  // are left out.)  The last pass may still be on its way: wait for it.
  const choicePasses = () => [...seen.values()].filter((e) => /^P0 passes the Seize$/.test(String(e.text)));
  for (let i = 0; i < 100 && choicePasses().length < manual.length + autos.length; i++) await watch.waitForTimeout(100);
  const passes = [...seen.values()].filter((e) => /^P0 passes the Seize/.test(String(e.text)) && !/^P0 passes the Seize \(/.test(String(e.text)));
  const kinds = new Set(passes.map((e) => `${e.kind}: ${e.text}`));
  check(passes.length >= manual.length + autos.length && kinds.size === 1,
    `the spectator sees ${passes.length} passes of P0 (${manual.length} clicked, ${autos.length} by the box), all alike: ${[...kinds].join(' / ')}`);
  if (resetSeen) check(true, 'the box is off again when a new Round begins');
  else console.log('#  (no new Round began with the box ticked: its reset is not checked in this game)');
  check(pageErrors.length === 0, `no script error${pageErrors.length ? `: ${pageErrors[0]}` : ''}`);
  await watchCtx.close();
  await context.close();
}

async function testTwoHumans(browser, base) {
  console.log('# two humans in two browser contexts');
  const ctxA = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const ctxB = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const a = await ctxA.newPage();
  const b = await ctxB.newPage();
  await createGame(a, base, ['me', 'invite', 'random', 'random']);
  await a.waitForSelector('input[data-invite="1"]', { timeout: 15000 });
  const invite = await a.inputValue('input[data-invite="1"]');
  check(/#game=[0-9a-f]{32}&seat=1&token=[A-Za-z0-9_-]+$/.test(invite), 'the lobby gives an invite link with the seat token in its fragment');
  await a.click('#go-table');
  await a.waitForSelector('.table.dml .seat.me .counts', { timeout: 15000 });
  await b.goto(invite);
  await b.waitForSelector('.table.dml .seat.me .counts', { timeout: 15000 });
  check(!(await b.evaluate(() => location.hash.includes('token='))), 'the invite\'s token leaves the address bar once used');
  // Until one of the two holds a card, each plays its first control in turn.
  // (When neither page has a control yet, wait for one, or for a card.)
  const ready = () => !!(document.querySelector('.move button.action:not([aria-disabled])')
    || document.querySelector('.dml-mine .cards > .card[data-card]'));
  for (let i = 0; i < 60; i++) {
    if ((await handCards(a)).length + (await handCards(b)).length > 0) break;
    let clicked = false;
    for (const p of [a, b]) {
      const button = await p.$('.move button.action:not([aria-disabled])');
      if (button) {
        await button.click().catch(() => null);
        clicked = true;
        await p.waitForTimeout(200);
      }
    }
    if (!clicked) {
      await Promise.race([a, b].map((p) => p.waitForFunction(ready, null, { timeout: 5000, polling: 50 })))
        .catch(() => null);
    }
  }
  // A page's Hand and the count its seat shows, read together.
  const handAndCount = (p, seat) => p.evaluate((st) => ({
    cards: [...document.querySelectorAll('.dml-mine .cards > .card[data-card]')].map((e) => e.dataset.card),
    count: Number((/Hand (\d+)/.exec(document.querySelector(`.seat[data-seat="${st}"] .counts`).textContent) || [])[1]),
  }), seat);
  const mineA = await handAndCount(a, 'P0');
  const mineB = await handAndCount(b, 'P1');
  const handA = mineA.cards;
  const handB = mineB.cards;
  const countOf = (p, seat) => p.$eval(`.seat[data-seat="${seat}"] .counts`, (x) => Number((/Hand (\d+)/.exec(x.textContent) || [])[1]));
  check(handA.length === mineA.count && handB.length === mineB.count,
    `each page shows its own seat's whole Hand (P0 ${handA.join(' ') || '-'} / P1 ${handB.join(' ') || '-'})`);
  check(handA.length + handB.length > 0 && handA.every((c) => !handB.includes(c)), 'the two Hands differ');
  const ownA = new Set(await a.$$eval('.dml-mine .card[data-card]', (els) => els.map((e) => e.dataset.card)));
  const ownB = new Set(await b.$$eval('.dml-mine .card[data-card]', (els) => els.map((e) => e.dataset.card)));
  check(handB.every((c) => !ownA.has(c)) && handA.every((c) => !ownB.has(c)), 'neither page shows the other\'s cards as its own');
  const knownOfB = await a.$$eval('.seat[data-seat="P1"] .known .card[data-card]', (els) => els.length);
  check(knownOfB <= await countOf(a, 'P1'), 'P0 sees no more of P1\'s Hand than P1 holds');
  // A spectator in a third context: the public table, no Hand, no controls.
  const ctxC = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const c = await ctxC.newPage();
  await c.goto(invite.replace(/&seat=.*$/, '&watch=1'));
  await c.waitForSelector('.table.dml .dml-mine h2', { timeout: 15000 });
  check((await c.textContent('.dml-mine h2')) === 'Spectating' && (await c.$$('.dml-mine .card')).length === 0
    && (await c.$$('.move button.action')).length === 0, 'a spectator sees no Hand and has no controls');
  check(/watching/.test(await c.textContent('.game-head h1')), 'the spectator\'s page says it is watching');
  await ctxC.close();
  // A link whose token was altered opens nothing and is not kept.
  const ctxD = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const d = await ctxD.newPage();
  const bad = invite.replace(/token=(.)/, (m, ch) => `token=${ch === 'A' ? 'B' : 'A'}`);
  await d.goto(bad);
  const refused = await d.waitForSelector('#error-banner:not([hidden])', { timeout: 15000 }).then(() => true, () => false);
  check(refused && (await d.$$('.table.dml')).length === 0 && !(await d.evaluate(() => location.hash.includes('token='))),
    'an altered invite link is refused, shows no table and leaves the address bar');
  check(await d.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('croupier.seat.')).length === 0), 'the refused token is not kept');
  await ctxD.close();
  const token = invite.split('token=')[1];
  check(!(await a.content()).includes(token), 'P0\'s page does not hold P1\'s token');
  check((await a.textContent('.game-head h1')).includes('P0') && (await b.textContent('.game-head h1')).includes('P1'), 'each page names its own seat');
  await a.screenshot({ path: path.join(shots, 'dml-two-humans-p0.png'), fullPage: true });
  await b.screenshot({ path: path.join(shots, 'dml-two-humans-p1.png'), fullPage: true });
  // P1 hands the seat to a bot, then P0 resigns: the game ends with P0 last.
  for (const p of [a, b]) p.on('dialog', (d) => d.accept());
  await b.click('#btn-bot');
  const handed = await a.waitForFunction(() => /P1 heuristic/.test(document.querySelector('.game-head').textContent),
    null, { timeout: 15000 }).then(() => true, () => false);
  check(handed, 'P1 hands the seat to a bot and P0\'s page shows it');
  await a.click('#btn-resign');
  await a.waitForSelector('.scoreboard:not([hidden])', { timeout: 15000 });
  const text = await a.textContent('.scoreboard');
  const p0Winner = await a.$eval('.scoreboard tbody tr:first-child', (tr) => tr.classList.contains('winner'));
  check(/resigned/.test(text) && !p0Winner, 'P0 resigns: the scoreboard says so and P0 does not win');
  await b.waitForSelector('.scoreboard:not([hidden])', { timeout: 15000 });
  check(true, 'P1\'s page shows the scoreboard too');
  await ctxA.close();
  await ctxB.close();

  // An open seat: another browser joins it from the lobby's list.
  const ctxE = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const ctxF = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const e = await ctxE.newPage();
  const f = await ctxF.newPage();
  await createGame(e, base, ['me', 'human', 'random', 'random']);
  await e.waitForSelector('.table.dml .seat.me', { timeout: 15000 });
  const gameId = (/game=([0-9a-f]{32})/.exec(await e.evaluate(() => location.hash)) || [])[1];
  await f.goto(`${base}/`);
  const joinButton = `.open-games li[data-game="${gameId}"] button`;
  await f.waitForSelector(joinButton, { timeout: 15000 });
  await f.click(joinButton);
  await f.waitForSelector('.table.dml .seat.me', { timeout: 15000 });
  check((await f.textContent('.game-head h1')).includes('you are P1'), 'a second player joins the open seat from the lobby');
  await ctxE.close();
  await ctxF.close();
}

async function testPhone(browser, base) {
  console.log('# phone width (390x844)');
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(`${base}/`);
  await page.waitForSelector('#c-create');
  check(await noHorizontalScroll(page), 'the lobby fits 390 px');
  await page.screenshot({ path: path.join(shots, 'phone-lobby.png'), fullPage: false });
  await createGame(page, base, ['me', 'heuristic', 'random', 'random'], { clock: { mode: 'move', minutes: 10 }, options: { 'first-roller': '2' } });
  await page.waitForSelector('.table.dml .dml-mine h2', { timeout: 15000 });
  check(await noHorizontalScroll(page), 'the table fits 390 px');
  const clocks = await page.waitForSelector('.clocks', { timeout: 15000 }).then((h) => h.textContent(), () => '');
  check(/P0 (10:00|9:[0-5][0-9])/.test(clocks), `the move clock shows (${clocks})`);
  let taps = 0;
  for (; taps < 12; taps++) {
    const h = await page.waitForFunction(() => document.querySelector('.scoreboard:not([hidden])') ? 'over'
      : document.querySelector('.move button.action:not([aria-disabled])') ? 'turn' : false, null, { timeout: 30000, polling: 50 });
    if ((await h.jsonValue()) === 'over') break;
    const before = await page.$$eval('.log-lines li', (l) => l.length);
    await page.locator('.move button.action:not([aria-disabled])').first().tap({ timeout: 5000 }).catch(() => {});
    await page.waitForFunction((n) => !document.querySelector('.move button.action[aria-disabled]')
      || document.querySelectorAll('.log-lines li').length !== n, before, { timeout: 30000, polling: 50 });
  }
  check(taps > 0, `the game goes on by tapping (${taps} taps)`);
  check(await noHorizontalScroll(page), 'the table still fits 390 px');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(shots, 'dml-phone.png'), fullPage: false });
  await context.close();
}

// Plays `moves` decisions (on any table) by clicking its controls.
async function playGeneric(page, moves) {
  let made = 0;
  for (let tries = 0; made < moves && tries < 4 * moves; tries++) {
    const h = await page.waitForFunction(() => document.querySelector('.scoreboard:not([hidden])') ? 'over'
      : document.querySelector('.move button.action:not([aria-disabled])') ? 'turn' : false, null, { timeout: 30000, polling: 50 });
    if ((await h.jsonValue()) === 'over') break;
    const before = await page.$$eval('.log-lines li', (l) => l.length);
    // Any control but a take-back (which could undo the moves forever).
    const buttons = await page.$$('.move :not([data-group="undo"]) > button.action:not([aria-disabled])');
    if (!buttons.length || !(await clickFresh(buttons[made % buttons.length]))) continue;
    made++;
    await page.waitForFunction((n) => !document.querySelector('.move button.action[aria-disabled]')
      || document.querySelectorAll('.log-lines li').length !== n, before, { timeout: 30000, polling: 50 });
  }
  return made;
}

async function testGeneric(browser, base) {
  console.log('# the generic table: DML as text, and every game without a view of its own');
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await createGame(page, base, ['me', 'random', 'random', 'random']);
  await page.waitForSelector('.table.dml', { timeout: 15000 });
  await page.click('#link-view');
  await page.waitForSelector('.table.generic pre.obs-text', { timeout: 15000 });
  const text = await page.textContent('pre.obs-text');
  check(/"seat": "P0"/.test(text), 'the text table shows the seat\'s observation');
  check(await playGeneric(page, 10) > 0, 'the text table plays by its controls');
  const info = await (await fetch(`${base}/api/info`)).json();
  const others = [];
  for (const g of info.games || []) {
    if (!fs.existsSync(path.join(ROOT, 'web', 'games', `${g.name}.js`))) others.push(g);
  }
  // Every game stays playable as text: 18Dracula (which has its own table) too.
  await createGame(page, base, ['me', 'random', 'random'], { game: '18dracula', variant: 'medieval' });
  await page.waitForSelector('.table.d18', { timeout: 15000 });
  await page.click('#link-view');
  await page.waitForSelector('.table.generic pre.obs-text', { timeout: 15000 });
  const d18text = await page.textContent('pre.obs-text');
  check(/"phase": \d/.test(d18text) && /"display"/.test(d18text), '18Dracula\'s text table shows its observation');
  check(await playGeneric(page, 10) > 0, '18Dracula is played on its text table');
  if (!others.length) console.log('ok   (every registered game has its own view: no other game for the generic table)');
  for (const g of others) {
    const v = (g.variants || [])[0];
    const n = v ? v.max_players : 2;
    await createGame(page, base, ['me', ...Array(n - 1).fill('random')], { game: g.name, variant: v ? v.name : null });
    await page.waitForSelector('.table.generic pre.obs-text', { timeout: 15000 });
    check(await playGeneric(page, 20) > 0, `${g.name} is played on the generic table`);
  }
  await context.close();
}

// Issue 17, point 8, on the generic table (any game's "Text table"): its
// amount field checks the action's step as the server does, and a refused
// amount leaves the controls free (they stayed busy until a reload: submit()
// marked them busy, then returned on the amount it refused).  18Dracula's
// associate bids go in steps of 5.
async function testAmounts(browser, base) {
  console.log('# amounts on the generic table: the step is checked at the field; after a refused amount the controls are free');
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  let last = null; // the last update received: its actions carry their amount ranges
  const sent = [];
  let acks = 0;
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => {
      try {
        const m = JSON.parse(f.payload);
        if (m.type === 'update') last = m;
        if (m.type === 'ack') acks++;
      } catch {
        // not JSON: watchProtocol says so
      }
    });
    ws.on('framesent', (f) => { try { sent.push(JSON.parse(f.payload)); } catch { /* idem */ } });
  });
  await createGame(page, base, ['me', 'random', 'random'], { game: '18dracula', variant: 'medieval' });
  await page.waitForSelector('.table.d18', { timeout: 15000 });
  await page.click('#link-view');
  await page.waitForSelector('.table.generic pre.obs-text', { timeout: 15000 });
  // Plays on (the first control each time) until the seat decides an amount
  // whose range holds more than one step.
  let a = null;
  for (let i = 0; i < 80 && !a; i++) {
    const state = await page.waitForFunction(() => (document.querySelector('.scoreboard:not([hidden])') ? 'over'
      : document.querySelector('.move button.action:not([aria-disabled])') ? 'turn' : false), null, { timeout: 30000, polling: 50 })
      .then((h) => h.jsonValue());
    if (state === 'over') break;
    const u = last;
    const found = u && u.your_turn ? (u.actions || []).find((x) => x.amount && x.amount.step > 1 && x.amount.max - x.amount.min >= x.amount.step) : null;
    if (found && await page.$(`.move input[data-key="amount-${found.id}"]`)) a = found;
    else await playGeneric(page, 1);
  }
  check(!!a, `a decision with an amount in steps came up${a ? ` (${a.text}: ${a.amount.min} to ${a.amount.max} in steps of ${a.amount.step})` : ''}`);
  if (a) {
    const field = page.locator(`.move input[data-key="amount-${a.id}"]`);
    const go = page.locator(`.move button[data-key="action-${a.id}"]`);
    const acts = () => sent.filter((m) => m.type === 'act').length;
    const off = a.amount.min + 1;
    const actsBefore = acts();
    await field.fill(String(off));
    await go.click();
    await page.waitForTimeout(500);
    const why = await field.evaluate((i) => i.validationMessage);
    check(why.includes(`in steps of ${a.amount.step}`) && acts() === actsBefore,
      `the generic field refuses ${off}, off the step, at the field ("${why}") and sends nothing`);
    const busy = await page.$$eval('.move button.action[aria-disabled]', (l) => l.length);
    check(busy === 0, `after the refused amount the controls are free (${busy} marked busy)`);
    // The next move is taken: the same action at an amount on its step.
    const acksBefore = acks;
    await field.fill(String(a.amount.min + a.amount.step));
    const clicked = await go.click({ timeout: 5000 }).then(() => true, () => false);
    for (let i = 0; i < 150 && acks === acksBefore; i++) await page.waitForTimeout(100);
    const taken = acks > acksBefore;
    const moved = sent.filter((m) => m.type === 'act').slice(actsBefore);
    check(clicked && taken && moved.length === 1 && moved[0].text === a.text.replace(/\d+$/, String(a.amount.min + a.amount.step)),
      `then the amount ${a.amount.min + a.amount.step} is sent as "${moved.length ? moved[0].text : '(nothing sent)'}" and taken`);
  }
  check(pageErrors.length === 0, `no script error${pageErrors.length ? `: ${pageErrors[0]}` : ''}`);
  await context.close();
}

// The log drawn on the page: its sequence numbers, oldest first.
async function logSeqs(page) {
  return page.$$eval('.log-lines li', (lis) => lis.map((li) => li.value - 1));
}

async function testReconnect(browser) {
  console.log('# the server is killed (kill -9) and restarted: the page reconnects and catches up');
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await createGame(page, server.base, ['me', 'random', 'random', 'random']);
  await page.waitForSelector('.table.dml .dml-mine h2', { timeout: 15000 });
  await playGeneric(page, 5);
  const before = await logSeqs(page);
  const frames = [];
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => frames.push(`> ${String(f.payload).slice(0, 160)}`));
    ws.on('framereceived', (f) => frames.push(`< ${String(f.payload).slice(0, 160)}`));
  });
  server.proc.kill('SIGKILL');
  await new Promise((r) => server.proc.on('exit', r));
  const gone = await page.waitForFunction(() => document.getElementById('conn').textContent !== '', null, { timeout: 15000 }).then(() => true, () => false);
  check(gone, 'the page notices the lost connection');
  // A move made while the server is away waits and goes through once it is back.
  const waiting = await page.$('.move :not([data-group="undo"]) > button.action:not([aria-disabled])');
  if (waiting) await waiting.click();
  server = await startServer(server.port);
  const back = await page.waitForFunction(() => document.getElementById('conn').textContent === '', null, { timeout: 30000 }).then(() => true, () => false);
  check(back, 'the page reconnects to the restarted server');
  if (waiting) {
    const through = await page.waitForFunction(() => !document.querySelector('.move button.action[aria-disabled]'), null, { timeout: 30000 }).then(() => true, () => false);
    const banner = await page.textContent('#error-banner');
    let acked = false;
    for (let i = 0; i < 100 && !acked; i++) {
      acked = frames.some((f) => f.startsWith('< ') && f.includes('"type":"ack"'));
      if (!acked) await page.waitForTimeout(100);
    }
    check(through && acked && !/seated|closed/.test(banner), `the move made while the server was away was acknowledged once it was back${banner ? ` (${banner})` : ''}`);
  }
  // Moves until the game has gone on (some moves only compose a choice).
  let made = 0;
  for (let i = 0; i < 40 && (await logSeqs(page)).length <= before.length; i++) made += await playGeneric(page, 1);
  if (process.env.CR_WEB_DEBUG) console.log(frames.join('\n'), await page.textContent('#error-banner'));
  const after = await logSeqs(page);
  check(after.length > before.length, `the game goes on after the restart (${made} more moves here)`);
  const continuous = after.every((x, i) => i === 0 || x === after[i - 1] + 1);
  check(before[0] === 0, 'the log starts at the game\'s first event');
  check(after.length > before.length && continuous && after[0] === before[0],
    `the log caught up with no gap and no repeat (events ${before[0]}..${before[before.length - 1]}, then ${after[0]}..${after[after.length - 1]}: ${after.length} lines)`);
  await context.close();
}

// --- 18Dracula ----------------------------------------------------------------------
// Plays `count` of the human's decisions on the 18Dracula table by clicking.
// Starting a front and buying its shares are preferred (so the human runs a
// front and meets the map's choices); selling is avoided; when the map offers
// places, one is clicked on the map itself (the first `mapClicks` times).
// Returns what was done.
async function playDracula(page, count, { seed = 3, mapClicks = 1, amountOnce = true, keyEvery = 0 } = {}) {
  let x = seed >>> 0;
  const rand = (n) => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x % n;
  };
  const did = { moves: 0, map: 0, amount: 0, keyed: 0, lit: false };
  // Plays on past `count` (up to 400 decisions) until the map has offered
  // `mapClicks` places: when the human first builds depends on the bots.
  for (let guard = 0; guard < 1600 && (did.moves < count || (did.map < mapClicks && did.moves < 400)); guard++) {
    const state = await page.waitForFunction(() => {
      if (document.querySelector('.scoreboard:not([hidden])')) return 'over';
      return document.querySelector('.move button.action:not([aria-disabled])') ? 'turn' : false;
    }, null, { timeout: 60000, polling: 50 }).then((h) => h.jsonValue());
    if (state === 'over') break;
    // The log's last line number (the page keeps only the last 1,000 lines).
    const lastSeq = () => {
      const li = document.querySelector('.log-lines li:last-child');
      return li ? li.value : 0;
    };
    const before = await page.evaluate(lastSeq);
    const places = await page.$$('.d18-svg .can');
    // On a phone a long list is folded: open it first.
    for (const fold of await page.$$('.move details.action-fold:not([open]) > summary')) await fold.click();
    const controls = await page.$$('.move button.action:not([aria-disabled]):not(.other-amount)');
    const groups = await Promise.all(controls.map((c) => c.evaluate((b) => b.closest('[data-group]').dataset.group)));
    const amountGo = await page.$('.move button.other-amount');
    let acted = false;
    let what = '';
    if (places.length && did.map < mapClicks) {
      // A control naming a place lights that place while the pointer is on it.
      if (!did.lit) {
        did.lit = await page.evaluate(() => {
          for (const b of document.querySelectorAll('.move button.action')) {
            b.dispatchEvent(new MouseEvent('mouseenter'));
            const on = document.querySelector('.d18-svg .hl');
            b.dispatchEvent(new MouseEvent('mouseleave'));
            if (on) return !document.querySelector('.d18-svg .hl');
          }
          return false;
        });
      }
      const place = places[rand(places.length)];
      try {
        // The first place by a click on it, the next by the keyboard
        // (focused, then Enter).
        if (did.map % 2 === 0) await place.dispatchEvent('click');
        else {
          await place.focus();
          await page.keyboard.press('Enter');
        }
        // A place with several actions moves the focus to the first of them.
        const focused = await page.evaluate(() => document.activeElement && document.activeElement.matches('.move button.action'));
        if (focused) await page.keyboard.press('Enter');
        did.map++;
        what = `a place on the map (${did.map % 2 ? 'clicked' : 'keyboard'}${focused ? ', then Enter on its first control' : ''})`;
        acted = true;
      } catch {
        continue;
      }
    } else if (amountGo && amountOnce && did.amount === 0) {
      // Another amount: the field's largest value is refused, its minimum taken.
      const field = await page.$('.move .amount-action input');
      const min = Number(await field.getAttribute('min'));
      await field.fill(String(min));
      await amountGo.click();
      what = `the amount ${min}`;
      did.amount++;
      acted = true;
    } else {
      const pref = ['start', 'buy-share', 'build', 'office', 'rampage', 'pay', 'buy-monster', 'buy'];
      let pick = -1;
      for (const g of pref) {
        const idx = groups.map((v, i) => (v === g ? i : -1)).filter((i) => i >= 0);
        if (idx.length && rand(4) !== 0) { pick = idx[rand(idx.length)]; break; }
      }
      if (pick < 0) {
        const ok = groups.map((v, i) => (v !== 'sell' && v !== 'emergency-sell' ? i : -1)).filter((i) => i >= 0);
        pick = ok.length ? ok[rand(ok.length)] : rand(controls.length);
      }
      const hint = keyEvery && did.moves % keyEvery === keyEvery - 1
        ? await controls[pick].evaluate((b) => (b.querySelector('kbd') ? b.querySelector('kbd').textContent : '')) : '';
      what = `${groups[pick]} control${hint ? ` (key ${hint})` : ''}`;
      if (/^[1-9]$/.test(hint)) {
        await page.locator('body').focus();
        await page.keyboard.press(hint);
        did.keyed++;
      } else if (!(await clickFresh(controls[pick]))) continue;
      acted = true;
    }
    if (!acted) continue;
    did.moves++;
    await page.waitForFunction((n) => {
      const busy = document.querySelector('.move button.action[aria-disabled]');
      const li = document.querySelector('.log-lines li:last-child');
      return (!busy && (li ? li.value : 0) !== n) || document.querySelector('.scoreboard:not([hidden])') || document.querySelector('#error-banner:not([hidden])');
    }, before, { timeout: 60000, polling: 50 }).catch(async () => {
      throw new Error(`no answer within 60 s to ${what} (prompt: ${await page.textContent('.move .prompt').catch(() => '?')})`);
    });
    const error = await page.$eval('#error-banner', (b) => (b.hidden ? '' : b.textContent));
    if (error) throw new Error(`the server refused a move: ${error}`);
  }
  return did;
}

// DML-2015 (variant dml-2015): its switches are offered only with it, the
// server's listing says whose they are, and a game with one of them shows
// the Setup's piles, the 2015 budget and the 2015 names, and plays on.
async function testDml2015(browser, base) {
  console.log('# DML-2015: its switches only with its variant; piles, 2015 words');
  const info = await (await fetch(`${base}/api/info`)).json();
  const dml = (info.games || []).find((g) => g.name === 'dml') || {};
  const sw = (dml.options || []).find((o) => o.key === 'bm-wager');
  check(sw && sw.variant === 'dml-2015', `/api/info names the variant of bm-wager (${sw && sw.variant})`);
  const fr = (dml.options || []).find((o) => o.key === 'first-roller');
  check(fr && fr.variant === null, 'an option of every variant has variant null');
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/`);
  await page.waitForSelector('#c-create');
  await page.selectOption('#c-game', 'dml');
  await page.selectOption('#c-variant', 'full');
  check(!(await page.$('#c-opt-bm-wager')), 'the full game does not offer the 2015 switches');
  await page.selectOption('#c-variant', 'dml-2015');
  check(!!(await page.$('#c-opt-cards-2015-06')) && !!(await page.$('#c-opt-bm-wager')), 'dml-2015 offers its switches');
  check(!!(await page.$('#c-opt-first-roller')), 'dml-2015 keeps the options of every variant');
  await page.selectOption('#c-variant', 'full');
  check(!(await page.$('#c-opt-turn-2015-06')), 'switching back to the full game hides the switches again');
  await createGame(page, base, ['me', 'random', 'random', 'random'], { variant: 'dml-2015', options: { 'cards-2015-06': 'yes' } });
  await page.waitForSelector('.table.dml', { timeout: 15000 });
  // P0 may first have a Dabo! in the roll-off (kept here); the last to
  // choose a pile has one left, which the server takes for it
  let sawPile = false;
  for (let i = 0; i < 10; i++) {
    const h = await page.waitForFunction(() => document.querySelector('.move fieldset[data-group="pile"] button.action') ? 'pile'
      : document.querySelector('.move fieldset[data-group="dabo"] button.action:not([aria-disabled])') ? 'dabo'
        : document.querySelector('.move button.action:not([aria-disabled])') ? 'other' : false,
    null, { timeout: 30000, polling: 50 }).catch(async (e) => {
      console.log(`the move pane: ${await page.textContent('.move')}`);
      throw e;
    });
    const what = await h.jsonValue();
    if (what === 'other') break;
    if (what === 'pile') {
      sawPile = true;
      check(/Setup piles/.test(await page.textContent('.dml-piles')), 'the piles left are shown at the Setup');
      const pileLabel = await page.textContent('.move fieldset[data-group="pile"] button.action');
      check(/face-down pile [A-D]/.test(pileLabel), `a pile is offered face down (${pileLabel.trim()})`);
      await page.locator('.move fieldset[data-group="pile"] button.action').first().click();
      break;
    }
    await page.locator('.move fieldset[data-group="dabo"] button.action', { hasText: 'Keep' }).click();
    await page.waitForTimeout(200);
  }
  await page.waitForFunction(() => /P0: pile [A-D]/.test(document.querySelector('.log-lines') ? document.querySelector('.log-lines').textContent : ''),
    null, { timeout: 30000, polling: 50 }).then(() => check(true, `the log says which pile P0 took${sawPile ? ' (chosen here)' : ' (the last one, taken for P0)'}`),
    async () => check(false, `the log says which pile P0 took: ${(await page.textContent('.log')).match(/.{0,80}P0: pile.{0,40}/)}`));
  check(await playGeneric(page, 12) > 0, 'a dml-2015 game plays on from the pile choice');
  const budget = await page.textContent('.dml-top');
  check(/Market Action/.test(budget) && !/Minor left/.test(budget), 'the 2015 budget counts Market Actions');
  const names = await page.evaluate(async () => (await import('/games/dml.js')).cardName('JC'));
  check(names === 'Greed Vizier', `cards-2015-06 names JC the Greed Vizier (${names})`);
  await context.close();
}

async function testDracula(browser, base) {
  console.log('# 18Dracula: one human, two bots; the map and the table, actions by clicking');
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`); });
  await createGame(page, base, ['me', 'heuristic', 'heuristic'], { game: '18dracula', variant: 'medieval' });
  await page.waitForSelector('.table.d18 svg.d18-svg', { timeout: 20000 });
  const data = await page.evaluate(async () => {
    const r = await fetch('/api/games/18dracula/data');
    return r.json();
  });
  // the page links the game's guide, and the link serves it with its glossary
  const guideHref = await page.getAttribute('#link-guide', 'href');
  if (guideHref !== '/api/games/18dracula/guide') throw new Error(`guide link: ${guideHref}`);
  const guide = await page.evaluate(async (href) => (await fetch(href)).text(), guideHref);
  if (!guide.includes('## Glossary')) throw new Error('the guide served has no glossary');
  const drawn = await page.evaluate(() => ({
    locs: document.querySelectorAll('.d18-svg .loc').length,
    routes: document.querySelectorAll('.d18-svg .hit').length,
    cities: document.querySelectorAll('.d18-svg .loc.city').length,
    offs: document.querySelectorAll('.d18-svg .loc.off').length,
    spaces: document.querySelectorAll('.d18-svg .space').length,
    names: [...document.querySelectorAll('.d18-svg .name, .d18-svg .off-name')].map((t) => t.textContent),
  }));
  check(drawn.locs === data.locations.length && drawn.routes === data.routes.length,
    `the map draws the board's ${data.locations.length} places and ${data.routes.length} route spaces`);
  const spaces = data.locations.reduce((n, l) => n + (l.spaces ? l.spaces.length : 0), 0);
  check(drawn.cities === data.locations.filter((l) => l.kind === 'city').length && drawn.offs === data.locations.filter((l) => l.kind === 'off').length
    && drawn.spaces === spaces, `cities with their ${spaces} office spaces and the off-boards are drawn`);
  check(data.locations.every((l) => drawn.names.includes(l.name)), 'every place is named on the map');
  const coords = await page.$eval('.d18-svg .loc', (g) => {
    const c = g.querySelector('circle, rect');
    return c ? [Number(c.getAttribute('cx') || Number(c.getAttribute('x')) + Number(c.getAttribute('width')) / 2), Number(c.getAttribute('cy') || Number(c.getAttribute('y')) + 15)] : [];
  });
  check(coords[0] === data.locations[0].x && coords[1] === data.locations[0].y, 'places stand at the board file\'s coordinates');
  for (const label of ['Phase and stage', 'Map', 'Players', 'Market', 'Fronts', 'Associates, LL and BT', 'Monsters', 'Your move', 'Log']) {
    check(await page.isVisible(`section[aria-label="${label}"]`), `the table has its ${label}`);
  }
  check((await page.$$('.market-grid td .price')).length > 10, 'the market grid shows its prices');
  check(/pts/.test(await page.textContent('.d18-players .seat.me .cash')), 'the player\'s cash shows');
  check((await page.$$('.phases li')).length === 5 && (await page.$$('.phases li.now')).length === 1, 'the phase tracker shows the five phases and the current one');
  // The replay of a game still being played is refused (its record is secret).
  const id = /game=([0-9a-f]{32})/.exec(page.url())[1];
  const other = await context.newPage();
  await other.goto(`${base}/#game=${id}&replay=1`);
  const refused = await other.waitForSelector('.not-finished', { timeout: 15000 }).then(() => true, () => false);
  check(refused && /still being played/.test(await other.textContent('.not-finished')), 'the replay viewer refuses a running game');
  await other.close();
  // A game may end before the human builds (a bankruptcy): then another one.
  let did = null;
  for (let game = 0; game < 3; game++) {
    if (game) {
      await createGame(page, base, ['me', 'heuristic', 'heuristic'], { game: '18dracula', variant: 'medieval' });
      await page.waitForSelector('.table.d18 svg.d18-svg', { timeout: 20000 });
    }
    const got = await playDracula(page, 60, { seed: 5 + game, mapClicks: 2, keyEvery: 7 });
    did = did ? Object.fromEntries(Object.entries(did).map(([k, v]) => [k, k === 'lit' ? v || got.lit : v + got[k]])) : got;
    if (did.map >= 2 && !(await page.isVisible('.scoreboard:not([hidden])'))) break;
    console.log(`# (the game ended after ${got.moves} decisions${did.map < 2 ? ', before the map offered two places' : ''}: another one)`);
  }
  check(did.moves >= 10, `${did.moves} decisions played by clicking (${did.keyed} by a key, ${did.amount} with a typed amount)`);
  // Names, not codes: the controls, the prompt, the help and the log name
  // fronts, associates, monsters and places; nothing cites the rules spec.
  const ids = [data.fronts, data.associates, data.monsters, data.locations].flat().map((x) => x.id).filter((i) => /^[A-Z][A-Z0-9]{1,5}$/.test(i));
  const idRe = new RegExp(`\\b(${ids.join('|')})\\b`);
  const words = await page.evaluate(() => [...document.querySelectorAll('.table.d18 .move, .table.d18 .log-lines')].map((x) => x.innerText).join('\n'));
  const coded = offending(words, idRe);
  check(words.length > 200 && coded.length === 0, `the controls and the log say names, not the board's codes${coded.length ? `: "${coded[0]}"` : ''}`);
  // '?' (and the "? Help" button) explain the decision at hand: the table's help, in names.
  const myTurn = await page.waitForSelector('.move details.help p', { timeout: 30000 }).then(() => true, () => false);
  if (myTurn) {
    await page.click('#btn-help');
    const shown = await page.$eval('#keys-dialog .decision-help', (p) => p.textContent).catch(() => '');
    const table = await page.$eval('.move details.help p', (p) => p.textContent);
    check(shown.length > 10 && shown === table && offending(shown, idRe).length === 0,
      `"? Help" explains the 18Dracula decision at hand (${shown.length} characters, the table's help, in names)`);
    await page.keyboard.press('Escape');
  } else console.log('#  (the game is over: no decision to explain)');
  const cited = offending(await page.evaluate(() => document.querySelector('main').innerText), SPEC_REF_RE);
  check(cited.length === 0, `nothing on the 18Dracula table cites the rules spec${cited.length ? `: "${cited[0]}"` : ''}`);
  const charters = await page.$$('.d18-fronts .charter');
  const markers = await page.$$('.market-grid .mk');
  check(charters.length > 0 && markers.length === charters.length, `started fronts have charters and markers on the market (${charters.length})`);
  check(did.map > 0, `${did.map} choice(s) made by clicking a place on the map`);
  const built = await page.$$('.d18-svg .route.built');
  check(did.map === 0 || built.length > 0 || (await page.$$('.d18-svg .token')).length > 1, 'the map shows what was built');
  check(did.lit, 'a control naming a place lights it on the map while the pointer is on it, and only then');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(shots, '18dracula-desktop.png'), fullPage: false });
  await page.screenshot({ path: path.join(shots, '18dracula-desktop-full.png'), fullPage: true });
  check(pageErrors.length === 0, `no script error and no console error${pageErrors.length ? `: ${pageErrors[0]}` : ''}`);
  await context.close();
}

async function testDraculaPhone(browser, base) {
  console.log('# 18Dracula at phone width (390x844, touch)');
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await createGame(page, base, ['me', 'random', 'heuristic', 'random'], { game: '18dracula', variant: 'medieval' });
  await page.waitForSelector('.table.d18 svg.d18-svg', { timeout: 20000 });
  check(await noHorizontalScroll(page), 'nothing sticks out past the right edge at 390 px');
  const order = await page.evaluate(() => {
    const y = (s) => document.querySelector(s).getBoundingClientRect().top;
    return y('.d18-top') < y('.move') && y('.move') < y('.d18-map');
  });
  check(order, 'on a phone the phase, then the controls, then the map');
  const did = await playDracula(page, 8, { seed: 9, mapClicks: 0, amountOnce: false });
  check(did.moves >= 4, `${did.moves} decisions played by tapping`);
  check(await noHorizontalScroll(page), 'still nothing past the right edge');
  // The map and the market are wider than the phone: each shows a cue on
  // its right edge, gone once scrolled to the end (and a cue on the left then).
  for (const [what, box] of [['map', '.d18-map .hscroll'], ['market', '.d18-market .hscroll']]) {
    const cue = `.hscroll-wrap:has(> ${box.split(' ')[1]}) > .scroll-cue`;
    const wider = await page.$eval(box, (b) => b.scrollWidth > b.clientWidth + 2);
    await page.$eval(box, (b) => b.scrollIntoView());
    const shown = await page.isVisible(`${box.split(' ')[0]} ${cue}.right`);
    const rightBox = shown ? await page.$eval(`${box.split(' ')[0]} ${cue}.right`, (c) => c.getBoundingClientRect().right) : 0;
    await page.$eval(box, (b) => { b.scrollLeft = b.scrollWidth; });
    const gone = await page.waitForFunction((sel) => { const c = document.querySelector(sel); return c && c.hidden; },
      `${box.split(' ')[0]} ${cue}.right`, { timeout: 3000, polling: 50 }).then(() => true, () => false);
    const left = await page.isVisible(`${box.split(' ')[0]} ${cue}.left`);
    check(wider && shown && rightBox <= 391 && gone && left,
      `the ${what} at 390 px scrolls sideways with a "scroll →" cue on its edge, gone at the end (where "←" shows)`);
    if (what === 'map') {
      await page.$eval(box, (b) => { b.scrollLeft = 0; });
      await page.screenshot({ path: path.join(shots, '18dracula-phone-map-cue.png'), fullPage: false });
    }
  }
  // The picture: the stage, the decision (long lists folded) and the map.
  for (const fold of await page.$$('.move details.action-fold[open] > summary')) await fold.click();
  check((await page.$$('.move details.action-fold:not([open])')).length === 0 || await page.isVisible('.move details.action-fold > summary'),
    'a long list of choices folds on a phone');
  await page.evaluate(() => document.querySelector('.d18-top').scrollIntoView());
  await page.screenshot({ path: path.join(shots, '18dracula-phone.png'), fullPage: false });
  check(pageErrors.length === 0, `no script error${pageErrors.length ? `: ${pageErrors[0]}` : ''}`);
  await context.close();
}

// The spreadsheet (web/games/18dracula.js, drawSheet), against the page's
// own players panel and log: each player's cash, and each operating round's
// cell of a front that paid out or withheld ("X pays out N", "X retains N");
// the same after a reload (the server rebuilds the annals from its store);
// the map dashes the last rampage's routes when the sheet says it ran some.
async function sheetText(page) {
  return page.$eval('.d18-sheet', (x) => x.innerText);
}
async function testDraculaSheet(browser, base) {
  console.log('# 18Dracula spreadsheet: players against fronts, the operating rounds, after a reload');
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await createGame(page, base, ['me', 'heuristic', 'heuristic'], { game: '18dracula', variant: 'medieval' });
  await page.waitForSelector('.table.d18 svg.d18-svg', { timeout: 20000 });
  check(await page.isVisible('section[aria-label="Spreadsheet"] details.sheet[open]'), 'the table has its Spreadsheet, open');
  check(/Nobody has operated yet/.test(await sheetText(page)), 'at the start nobody has operated');
  const orRows = () => page.$$eval('.d18-sheet table.or-sheet tbody tr', (x) => x.length).catch(() => 0);
  // a dividend line in the log ("Sanguine Clan pays out 140: 14 a share", "... retains 60"):
  // a round where every front earned nothing writes none, so play on until one is written
  const dividends = () => page.$$eval('.log-lines li', (x) => x.filter((li) => / (?:pays out \d+:|retains \d+$)/.test(li.textContent)).length);
  let moves = 0;
  for (let i = 0; i < 60 && ((await orRows()) < 2 || (await dividends()) === 0) && !(await page.isVisible('.scoreboard:not([hidden])')); i++) {
    moves += (await playDracula(page, 5, { seed: 11 + i, mapClicks: 0 })).moves;
  }
  const rows = await orRows();
  check(rows >= 2, `two operating rounds in the spreadsheet after ${moves} decisions (${rows} rows)`);
  // nothing moves while the human decides
  await page.waitForFunction(() => document.querySelector('.scoreboard:not([hidden])') || document.querySelector('.move button.action:not([aria-disabled])'), null, { timeout: 60000 });
  const sheet = await page.evaluate(() => {
    const t = document.querySelector('.d18-sheet table.or-sheet');
    const ids = t ? [...t.querySelectorAll('thead th')].map((th) => th.textContent) : [];
    const names = t ? [...t.querySelectorAll('thead th')].map((th) => (th.querySelector('abbr') || th).title) : [];
    const cells = t ? [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent)) : [];
    const cash = [...document.querySelectorAll('.d18-sheet table.players-sheet tbody tr[data-seat]')].map((tr) => [Number(tr.dataset.seat), tr.querySelector('.cash').textContent]);
    const seatCash = Object.fromEntries([...document.querySelectorAll('.d18-players .seat')].map((x) => [x.dataset.seat, x.querySelector('.cash').textContent]));
    const log = [...document.querySelectorAll('.log-lines li')].map((li) => li.textContent);
    return { ids, names, cells, cash, seatCash, log };
  });
  check(sheet.cash.length >= 3 && sheet.cash.every(([p, c]) => sheet.seatCash[p] === `${c} pts`), 'each player\'s cash in the spreadsheet is the players panel\'s');
  // the log names an entity ("Sanguine Clan pays out 140: ..."); its column is headed by its code, the name on hover
  const column = (name) => sheet.names.indexOf(name);
  let matched = 0;
  let missing = '';
  for (const line of sheet.log) {
    const m = /^(.+?) (?:pays out (\d+):|retains (\d+)$)/.exec(line);
    if (!m) continue;
    const j = column(m[1]);
    const want = m[2] !== undefined ? `${m[2]}p` : `${m[3]}w`;
    if (j > 0 && sheet.cells.some((r) => String(r[j]).startsWith(want))) matched++;
    else missing = missing || `${line} (column ${j})`;
  }
  check(matched > 0 && !missing, `every dividend in the log is a cell of the operating rounds (${matched})${missing ? `; not: ${missing}` : ''}`);
  const lastRun = await page.$$eval('.d18-svg .route.last-run', (x) => x.length);
  const says = /its routes are dashed white on the map/.test(await sheetText(page));
  check(says === (lastRun > 0), `the map dashes the last rampage's routes (${lastRun}) when the spreadsheet says so`);
  await page.locator('.d18-sheet').screenshot({ path: path.join(shots, '18dracula-sheet.png') });
  const before = await sheetText(page);
  await page.reload();
  await page.waitForSelector('.table.d18 svg.d18-svg', { timeout: 20000 });
  await page.waitForFunction((n) => document.querySelectorAll('.d18-sheet table.or-sheet tbody tr').length >= n, rows, { timeout: 20000 }).catch(() => null);
  check(await sheetText(page) === before, 'after a reload the spreadsheet is the same (rebuilt by the server)');
  check(pageErrors.length === 0, `no script error${pageErrors.length ? `: ${pageErrors[0]}` : ''}`);
  await context.close();
}

async function testDraculaReplay(browser, base) {
  console.log('# 18Dracula replay: a game of two bots, replayed with the map at every step');
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  const t0 = Date.now();
  await createGame(page, base, ['random', 'random'], { game: '18dracula', variant: 'medieval' });
  await page.waitForSelector('.scoreboard:not([hidden])', { timeout: 240000 });
  console.log(`# (the bots' game took ${Math.round((Date.now() - t0) / 1000)} s)`);
  await page.click('#link-replay');
  await page.waitForSelector('.replay-table .table.d18 svg.d18-svg', { timeout: 30000 });
  const stepIs = (re) => page.waitForFunction((src) => new RegExp(src).test(document.querySelector('.step-line').textContent), re.source, { timeout: 30000, polling: 50 }).then(() => true, () => false);
  const built = () => page.$$eval('.replay-table .d18-svg .route.built', (x) => x.length);
  check(await stepIs(/^Step (\d+) of \1/), 'the replay opens at the last step');
  const atEnd = await built();
  await page.click('button[aria-label="First step"]');
  check(await stepIs(/^Step 0 of/), 'First step goes to the start');
  const atStart = await built();
  check(atEnd > atStart, `the map at the end shows more built route spaces than at the start (${atEnd} against ${atStart})`);
  await page.click('button[aria-label="Last step"]');
  check(await stepIs(/^Step (\d+) of \1/) && await built() === atEnd, 'Last step shows the end again');
  check((await page.$$('.replay-table .move button.action')).length === 0, 'the replayed table has no controls');
  const orRowsNow = () => page.$$eval('.replay-table .d18-sheet table.or-sheet tbody tr', (x) => x.length);
  check(await orRowsNow() > 0, 'the replay\'s spreadsheet has the operating rounds at the end');
  await page.click('button[aria-label="First step"]');
  check(await stepIs(/^Step 0 of/) && /Nobody has operated yet/.test(await page.textContent('.replay-table .d18-sheet')), 'and none at the start');
  check(pageErrors.length === 0, `no script error${pageErrors.length ? `: ${pageErrors[0]}` : ''}`);
  await context.close();
}

// 8. the coach: the Hint button at a table of one human (the strongest
//    tier's suggestion); the lobby's "hints allowed" for a table of two
//    humans made with it, and not for one made without; the replay
//    viewer's Analyse: the counts of `croupier analyse` on the same record,
//    and the worst decision's step shows its mark.
async function testCoach(browser, base) {
  console.log('# coach: a hint, hints allowed in the lobby, the replay analysed');
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  const hintsOf = {}; // game_id -> `hints` of the game's last update
  page.on('websocket', (ws) => ws.on('framereceived', (f) => {
    let msg = null;
    try { msg = JSON.parse(f.payload); } catch { /* watchProtocol reports it */ }
    if (msg && msg.type === 'update') hintsOf[msg.game_id] = msg.hints;
  }));
  const hintsSeen = async (id) => { // at most 15 s
    for (let i = 0; i < 300 && hintsOf[id] === undefined; i++) await new Promise((r) => setTimeout(r, 50));
  };
  await createGame(page, base, ['me', 'club', 'club', 'club']);
  await page.waitForSelector('.table.dml', { timeout: 15000 });
  const solo = /#game=([0-9a-f]{32})/.exec(page.url())[1];
  await page.waitForSelector('#btn-hint', { timeout: 30000 });
  await page.click('#btn-hint');
  const hinted = await page.waitForFunction(() => /^Hint: master would play: /.test(document.querySelector('.hint-line').textContent), null, { timeout: 30000 }).then(() => true, () => false);
  check(hinted, `the Hint button shows the strongest tier's move (${await page.textContent('.hint-line')})`);

  await createGame(page, base, ['me', 'human', 'random', 'random'], { hints: true });
  await page.waitForSelector('.table.dml', { timeout: 15000 });
  const agreed = /#game=([0-9a-f]{32})/.exec(page.url())[1];
  await createGame(page, base, ['me', 'human', 'random', 'random']);
  await page.waitForSelector('.table.dml', { timeout: 15000 });
  const plain = /#game=([0-9a-f]{32})/.exec(page.url())[1];
  await hintsSeen(plain);
  check(hintsOf[solo] === true && hintsOf[agreed] === true && hintsOf[plain] === false,
    `updates say whether hints may be asked: one human ${hintsOf[solo]}, two humans agreed ${hintsOf[agreed]}, two humans not ${hintsOf[plain]}`);
  await page.goto(`${base}/`);
  await page.waitForSelector(`.open-games li[data-game="${agreed}"]`, { timeout: 15000 });
  check(await page.isVisible(`.open-games li[data-game="${agreed}"] .hints-allowed`), 'the lobby shows "hints allowed" for a table made with it');
  check(!(await page.$(`.open-games li[data-game="${plain}"] .hints-allowed`)), 'and not for a table made without it');

  await createGame(page, base, ['random', 'random', 'random', 'random']);
  await page.waitForSelector('.scoreboard:not([hidden])', { timeout: 120000 });
  await page.click('#link-replay');
  await page.waitForSelector('.replay-bar', { timeout: 15000 });
  const record = path.join(scratch, 'coach.rec');
  fs.writeFileSync(record, await page.textContent('.record-text'));
  const want = JSON.parse(await new Promise((resolve, reject) => {
    const p = spawn(croupier, ['analyse', record, '--as', '1', '--iters', '300', '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d) => { out += d; });
    p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`croupier analyse exited ${code}`))));
  }));
  await page.selectOption('#coach-seat', '1');
  check(await page.$eval('#coach-iters', (x) => x.value) === '300', 'a DML game of a few hundred steps is analysed with 300 searches a decision by default');
  await page.click('#coach-analyse');
  await page.waitForSelector('.coach-counts', { timeout: 120000 });
  const counts = await page.textContent('.coach-counts');
  const s = want.summary;
  check(counts.startsWith(`P1: ${s.analysed} decisions analysed (300 searches each), ${s.doubtful} doubtful (?), ${s.blunders} blunder${s.blunders === 1 ? '' : 's'} (??). Error rate ${s.error_rate.toFixed(1)}`),
    `the analysis gives croupier analyse's counts (${counts.slice(0, 90)}…)`);
  check(await page.$eval('#replay-view', (x) => x.value) === '1', 'the viewer shows the analysed seat\'s view');
  const marked = want.decisions.filter((d) => d.mark !== 'fine').sort((a, b) => b.loss - a.loss);
  if (marked.length) {
    await page.click('.coach-worst button');
    const at = await page.waitForFunction((k) => document.querySelector('.step-line').textContent.startsWith(`Step ${k} of`), marked[0].step, { timeout: 15000 }).then(() => true, () => false);
    check(at, `the worst decision's button goes to its step (${marked[0].step})`);
    const line = await page.textContent('.coach-line');
    check(line.includes(`played ${marked[0].played}`) && line.includes(marked[0].mark === 'blunder' ? '??' : '?') && line.includes(`best ${marked[0].best}`),
      `the step shows the move played, its mark and the best one (${line})`);
    await page.selectOption('#replay-view', '0');
    const hidden = await page.waitForFunction(() => /shows in P1's view/.test(document.querySelector('.coach-line').textContent), null, { timeout: 15000 }).then(() => true, () => false);
    check(hidden, "another seat's view does not show P1's analysis");
  } else {
    check(/No clear mistake/.test(await page.textContent('.coach-summary')), 'no marked decision: the summary says so');
  }
  await page.screenshot({ path: path.join(shots, 'coach-replay.png'), fullPage: false });
  check(pageErrors.length === 0, `no script error${pageErrors.length ? `: ${pageErrors[0]}` : ''}`);
  await context.close();
}

let server;
let browser;
try {
  server = await startServer();
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: launchArgs });
  // every page of every context is watched (watchProtocol)
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    context.on('page', watchProtocol);
    return context;
  };
  // CR_WEB_ONLY=name,name runs some of them (desktop, humans, phone, generic, reconnect, dracula, dracula-sheet, dracula-phone, dracula-replay, dml-2015, amounts, coach, seize).
  const only = (process.env.CR_WEB_ONLY || '').split(',').filter(Boolean);
  const tests = { desktop: testDesktop, humans: testTwoHumans, phone: testPhone, generic: testGeneric, reconnect: testReconnect, dracula: testDracula, 'dracula-sheet': testDraculaSheet, 'dracula-phone': testDraculaPhone, 'dracula-replay': testDraculaReplay, 'dml-2015': testDml2015, amounts: testAmounts, coach: testCoach, seize: testSeize };
  for (const [name, run] of Object.entries(tests)) {
    if (!only.length || only.includes(name)) await run(browser, server.base);
  }
  check(wire.sent > 0 && wire.received > 0 && wire.problems.length === 0,
    `the ${wire.sent} messages sent and ${wire.received} received follow docs/protocol.schema.json`
    + (wire.problems.length ? ` (${wire.problems.length} do not; the first: ${wire.problems.slice(0, 5).join(' | ')})` : ''));
} catch (err) {
  failures++;
  console.log(`FAIL ${err && err.stack ? err.stack : err}`);
  try {
    console.log(fs.readFileSync(path.join(scratch, 'server.log'), 'utf8').split('\n').slice(-30).join('\n'));
  } catch {
    // no log
  }
} finally {
  if (browser) await browser.close();
  if (server) {
    // The server stops cleanly on SIGTERM (under the sanitizers too: a
    // memory error or a leak found at exit is a non-zero status).
    const status = await new Promise((r) => {
      if (server.proc.exitCode !== null || server.proc.signalCode !== null) {
        r({ code: server.proc.exitCode, signal: server.proc.signalCode });
        return;
      }
      server.proc.on('exit', (code, signal) => r({ code, signal }));
      server.proc.kill('SIGTERM');
      setTimeout(() => r({ code: null, signal: 'timeout' }), 15000);
    });
    check(status.code === 0, `croupier serve stops cleanly on SIGTERM (${JSON.stringify(status)})`);
    if (status.code !== 0) {
      try {
        console.log(fs.readFileSync(path.join(scratch, 'server.log'), 'utf8').split('\n').slice(-40).join('\n'));
      } catch {
        // no log
      }
    }
  }
}
console.log(`screenshots in ${shots}`);
if (!process.argv[3]) fs.rmSync(scratch, { recursive: true, force: true });
else fs.rmSync(path.join(scratch, 'games.sqlite'), { force: true });
console.log(failures ? `${failures} failed` : 'all passed');
process.exit(failures ? 1 : 0);
