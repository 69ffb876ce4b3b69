// tests/deploy/proxy.mjs: the browser's part of tests/deploy/test_proxy.sh,
// which starts two `croupier serve` on one PostgreSQL schema and HAProxy
// (deploy/haproxy.cfg) in front of them with a self-signed certificate, and
// passes their addresses and pids in the environment:
//   CR_PROXY      https://127.0.0.1:PORT, HAProxy
//   CR_S1, CR_S2  http://127.0.0.1:PORT of each server (direct, for the checks)
//   CR_S1_PID, CR_S2_PID  their pids
//   CR_SCRATCH, CR_CROUPIER, CR_DB, CR_WEB  to start a killed server again
//
// 1. Chromium opens the lobby through the proxy (https) and creates a DML
//    game, one human and three bots; the table's socket is wss://.../ws?game=ID.
// 2. A process that does not play the game refuses the upgrade of
//    /ws?game=ID (no 101), and answers a plain /ws.
// 3. After a few moves the process that plays the game (games_running of
//    /api/server) is killed with kill -9.  The page reconnects through the
//    proxy by itself, to the other process, which took the game over.
// 4. The killed server is started again on its port (as systemd's
//    Restart=always would): the game stays where it is, and four upgrades
//    of the game's socket through the proxy are answered 101 (test_proxy.sh
//    then finds in HAProxy's log that they went to the new owner with no
//    retry: the stick table follows the game).
// 5. The game is played to its end in the same page: its log runs from
//    event 0 with no gap and no repeat and holds every event seen before the
//    kill, and no message ever said `elsewhere`.
// Exit 0 when all pass, 1 on a failure.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import path from 'node:path';

const CHROMIUM = process.env.CR_CHROMIUM || '/usr/bin/chromium';
const PROXY = process.env.CR_PROXY;
const servers = [
  { name: 's1', base: process.env.CR_S1, pid: Number(process.env.CR_S1_PID) },
  { name: 's2', base: process.env.CR_S2, pid: Number(process.env.CR_S2_PID) },
];
const { chromium } = await import(path.resolve(process.env.CR_WEB, '..', 'tests', 'web', 'node_modules', 'playwright-core', 'index.mjs'));

let failures = 0;
function check(cond, what) {
  if (cond) console.log(`ok   ${what}`);
  else {
    failures++;
    console.log(`FAIL ${what}`);
  }
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// games_running of a server's /api/server, or null when it does not answer.
async function running(base) {
  try {
    const res = await fetch(`${base}/api/server`, { signal: AbortSignal.timeout(2000) });
    return (await res.json()).games_running;
  } catch {
    return null;
  }
}

// The first line of the answer to an upgrade of PATH sent straight to a
// server ('' when it closes without answering) (or over TLS to the proxy: a https:// base; its certificate is
// the test's own, not checked).
function upgradeStatus(base, pathAndQuery) {
  const { protocol, hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const sock = protocol === 'https:'
      ? tls.connect({ port: Number(port), host: hostname, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] })
      : net.connect(Number(port), hostname);
    let got = '';
    sock.setTimeout(5000, () => sock.destroy());
    sock.on(protocol === 'https:' ? 'secureConnect' : 'connect', () => sock.write(`GET ${pathAndQuery} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n`
      + 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n'
      + 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n'));
    sock.on('data', (d) => {
      got += d;
      if (got.includes('\r\n')) sock.destroy();
    });
    sock.on('close', () => resolve(got.split('\r\n')[0]));
    sock.on('error', () => {});
  });
}

// The same play as tests/web/run.mjs: any control but a take-back.
async function clickFresh(handle) {
  try {
    await handle.click({ timeout: 5000 });
    return true;
  } catch (err) {
    if (/not attached|detached|Timeout/.test(String(err && err.message))) return false;
    throw err;
  }
}
async function play(page, moves) {
  let made = 0;
  for (let tries = 0; made < moves && tries < 4 * moves; tries++) {
    const h = await page.waitForFunction(() => document.querySelector('.scoreboard:not([hidden])') ? 'over'
      : document.querySelector('.move button.action:not([aria-disabled])') ? 'turn' : false, null, { timeout: 30000, polling: 50 });
    if ((await h.jsonValue()) === 'over') break;
    const before = await page.$$eval('.log-lines li', (l) => l.length);
    const buttons = await page.$$('.move :not([data-group="undo"]) > button.action:not([aria-disabled])');
    if (!buttons.length || !(await clickFresh(buttons[made % buttons.length]))) continue;
    made++;
    await page.waitForFunction((n) => !document.querySelector('.move button.action[aria-disabled]')
      || document.querySelectorAll('.log-lines li').length !== n, before, { timeout: 30000, polling: 50 });
  }
  return made;
}
const over = (page) => page.evaluate(() => !!document.querySelector('.scoreboard:not([hidden])'));
const logSeqs = (page) => page.$$eval('.log-lines li', (lis) => lis.map((li) => li.value - 1));

let browser;
let restarted = null;
try {
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ignoreHTTPSErrors: true });
  const page = await context.newPage();
  const sockets = [];
  const received = [];
  page.on('websocket', (ws) => {
    sockets.push(ws.url());
    ws.on('framereceived', (f) => received.push(String(f.payload)));
  });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));

  console.log('# the lobby through the proxy (https), a game created there');
  for (let i = 0; ; i++) { // until HAProxy listens
    try {
      await page.goto(`${PROXY}/`);
      break;
    } catch (err) {
      if (i === 50) throw err;
      await sleep(200);
    }
  }
  await page.waitForSelector('#c-create');
  await page.selectOption('#c-game', 'dml');
  await page.selectOption('#c-variant', 'full');
  await page.selectOption('#c-players', '4');
  await page.selectOption('#c-seat-0', 'me');
  for (let i = 1; i < 4; i++) {
    await page.selectOption(`#c-seat-${i}`, 'bot');
    await page.fill(`#c-spec-${i}`, 'random');
  }
  await page.click('#c-create');
  await page.waitForSelector('.table.dml .dml-mine h2', { timeout: 15000 });
  const gameId = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).get('game');
  check(/^[0-9a-f]{32}$/.test(gameId || ''), `the page shows the game (${gameId})`);
  check(sockets.length >= 2 && sockets[0].startsWith('wss://') && !sockets[0].includes('?'),
    `the lobby's socket is wss:// to plain /ws (${sockets[0]})`);
  check(sockets.some((u) => u.startsWith('wss://') && u.endsWith(`/ws?game=${gameId}`)),
    'the table opened its own socket, wss://.../ws?game=ID');

  await play(page, 6);
  const counts = await Promise.all(servers.map((s) => running(s.base)));
  const owners = servers.filter((s, i) => counts[i] === 1);
  check(owners.length === 1 && counts.every((c) => c === 0 || c === 1),
    `exactly one process plays the game (games_running: ${counts.join(', ')})`);
  const owner = owners[0] || servers[0];
  const other = servers.find((s) => s !== owner);

  console.log('# the process that does not play the game refuses its upgrade');
  const refused = await upgradeStatus(other.base, `/ws?game=${gameId}`);
  check(refused === '', `${other.name} closes /ws?game=ID without an answer (got "${refused}")`);
  const lobby = await upgradeStatus(other.base, '/ws');
  check(/^HTTP\/1\.1 101/.test(lobby), `${other.name} upgrades plain /ws (got "${lobby}")`);
  const ownerSays = await upgradeStatus(owner.base, `/ws?game=${gameId}`);
  check(/^HTTP\/1\.1 101/.test(ownerSays), `${owner.name} upgrades /ws?game=ID (got "${ownerSays}")`);

  await play(page, 4);
  const before = await logSeqs(page);
  check(before.length > 0 && !(await over(page)), `the game is under way before the kill (${before.length} events seen)`);
  const socketsBefore = sockets.length;

  console.log(`# kill -9 of ${owner.name}, the process that plays the game`);
  process.kill(owner.pid, 'SIGKILL');
  const t0 = Date.now();
  const gone = await page.waitForFunction(() => document.getElementById('conn').textContent !== '', null, { timeout: 15000 }).then(() => true, () => false);
  check(gone, 'the page notices the lost connection');
  const back = await page.waitForFunction(() => document.getElementById('conn').textContent === '', null, { timeout: 30000 }).then(() => true, () => false);
  check(back, `the page reconnects through the proxy by itself (${Date.now() - t0} ms after the kill)`);
  check(sockets.slice(socketsBefore).every((u) => u.startsWith('wss://') && u.endsWith(`/ws?game=${gameId}`)),
    `its new sockets are the game's (${sockets.length - socketsBefore} opened)`);
  check(await running(other.base) === 1, `${other.name} took the game over`);

  console.log(`# ${owner.name} started again on its port, as systemd's Restart=always would`);
  const port = new URL(owner.base).port;
  const log = fs.openSync(path.join(process.env.CR_SCRATCH, `${owner.name}-restarted.log`), 'a');
  restarted = spawn(process.env.CR_CROUPIER, ['serve', '--listen', `127.0.0.1:${port}`, '--db', process.env.CR_DB,
    '--web', process.env.CR_WEB], { stdio: ['ignore', log, log] });
  fs.writeFileSync(path.join(process.env.CR_SCRATCH, 'restarted.pid'), String(restarted.pid));
  let up = null;
  for (let i = 0; i < 100 && up === null; i++) {
    up = await running(owner.base);
    if (up === null) await sleep(100);
  }
  check(up === 0, `${owner.name} is back and plays no game (games_running: ${up})`);

  // 3 s: the restarted server's first sweeps, and HAProxy's checks find it
  // up again (rise 2 x inter 1 s), so it could be chosen.  The stick table
  // names the game's new owner: upgrades through the proxy go there, none to
  // the restarted server (test_proxy.sh reads in HAProxy's log that none
  // needed a retry).
  await sleep(3000);
  const direct = [];
  for (let i = 0; i < 4; i++) direct.push(await upgradeStatus(PROXY, `/ws?game=${gameId}&probe=${i}`));
  check(direct.every((l) => /^HTTP\/1\.1 101/.test(l)), `upgrades of the game's socket through the proxy are answered 101 (${direct.join(', ')})`);
  console.log('# the game goes on to its end in the same page');
  let made = 0;
  for (let i = 0; i < 60 && !(await over(page)); i++) {
    made += await play(page, 20);
  }
  check(await over(page), `the game reached its end (${made} more moves here)`);
  const counts2 = await Promise.all(servers.map((s) => running(s.base)));
  check(counts2[servers.indexOf(owner)] === 0, `the restarted ${owner.name} never pulled the game back (games_running: ${counts2.join(', ')})`);
  const after = await logSeqs(page);
  const continuous = after.every((x, i) => i === 0 || x === after[i - 1] + 1);
  check(after[0] === 0 && continuous && after.length > before.length,
    `the log runs from event 0 with no gap and no repeat (${after.length} events)`);
  check(before.every((x, i) => after[i] === x), 'every event seen before the kill is still there, in place');
  const elsewhere = received.filter((m) => m.includes('"elsewhere"'));
  check(received.length > 0 && elsewhere.length === 0, `no message said "elsewhere" (${received.length} received)`);
  const banner = await page.textContent('#error-banner');
  check(!/elsewhere|another server/i.test(banner || ''), `the page shows no routing error${banner ? ` (${banner})` : ''}`);
  check(pageErrors.length === 0, `no script error${pageErrors.length ? `: ${pageErrors[0]}` : ''}`);
  await context.close();
} catch (err) {
  failures++;
  console.log(`FAIL ${err && err.stack ? err.stack : err}`);
} finally {
  if (browser) await browser.close();
  if (restarted && restarted.exitCode === null) restarted.kill('SIGTERM');
}
console.log(failures ? `${failures} failed` : 'all passed');
process.exit(failures ? 1 : 0);
