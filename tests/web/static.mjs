// tests/web/static.mjs: checks of web/ that need no browser.
//
//   node tests/web/static.mjs
//
// - every module parses as an ES module;
// - no module builds HTML from strings: no innerHTML / outerHTML /
//   insertAdjacentHTML / document.write / eval / new Function (server and
//   player text goes in through textContent only, web/js/dom.js);
// - every relative import and every file index.html names exists;
// - every module of web/games/ exports createView (the table's contract);
// - the amount check every amount field uses (actions.js amountProblem):
//   the range and the step, as the server checks them;
// - the client requests only messages of docs/protocol.schema.json, and the
//   validator the browser tests use (schema.mjs) finds a drift.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const WEB = path.join(ROOT, 'web');
let failures = 0;
function check(cond, what) {
  console.log(`${cond ? 'ok  ' : 'FAIL'} ${what}`);
  if (!cond) failures++;
}

function walk(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

const files = walk(WEB);
const modules = files.filter((f) => f.endsWith('.js'));
check(modules.length > 0, `web/ holds ${modules.length} modules`);
const BANNED = [
  [/\.innerHTML\b/, 'innerHTML'],
  [/\.outerHTML\b/, 'outerHTML'],
  [/insertAdjacentHTML/, 'insertAdjacentHTML'],
  [/document\.write/, 'document.write'],
  [/\beval\s*\(/, 'eval'],
  [/new\s+Function\s*\(/, 'new Function'],
  [/\.srcdoc\b/, 'srcdoc'],
  [/createContextualFragment/, 'createContextualFragment'],
];
for (const f of modules) {
  const rel = path.relative(ROOT, f);
  const text = fs.readFileSync(f, 'utf8');
  const parsed = spawnSync(process.execPath, ['--check', '--input-type=module'], { input: text, encoding: 'utf8' });
  check(parsed.status === 0, `${rel} parses${parsed.status ? `: ${parsed.stderr.split('\n').slice(0, 4).join(' ')}` : ''}`);
  const hits = BANNED.filter(([re]) => re.test(text)).map(([, name]) => name);
  check(hits.length === 0, `${rel} builds no HTML from strings${hits.length ? ` (uses ${hits.join(', ')})` : ''}`);
  for (const m of text.matchAll(/(?:import|from)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const target = path.resolve(path.dirname(f), m[1]);
    check(fs.existsSync(target), `${rel} imports ${m[1]}, which exists`);
  }
  if (path.dirname(f) === path.join(WEB, 'games')) {
    check(/export function createView\s*\(/.test(text), `${rel} exports createView`);
  }
}
const index = fs.readFileSync(path.join(WEB, 'index.html'), 'utf8');
for (const m of index.matchAll(/(?:src|href)="([^"#:]+)"/g)) {
  check(fs.existsSync(path.join(WEB, m[1])), `index.html names ${m[1]}, which exists`);
}
check(/Content-Security-Policy/.test(index) && /script-src 'self'/.test(index), 'index.html allows only its own scripts (CSP)');
// web/ has no package.json: Node before 20 reads its .js files as CommonJS,
// so the modules are imported from a copy marked as ES modules.
const esm = fs.mkdtempSync(path.join(os.tmpdir(), 'croupier-web-'));
fs.writeFileSync(path.join(esm, 'package.json'), '{"type": "module"}\n');
for (const f of ['actions.js', 'dom.js']) fs.copyFileSync(path.join(WEB, 'js', f), path.join(esm, f));
const actions = await import(pathToFileURL(path.join(esm, 'actions.js')).href);
fs.rmSync(esm, { recursive: true, force: true });
const bid = { text: 'bid 10', amount: { min: 10, max: 50, step: 5 } };
check(actions.amountProblem(bid, 15) === '' && actions.amountText(bid, 15) === 'bid 15',
  'an amount in range and on the step is taken');
check(actions.amountProblem(bid, 12) === 'from 10 to 50, in steps of 5' && actions.amountText(bid, 12) === null,
  'an amount off the step is refused, and the refusal names the step');
check(actions.amountProblem(bid, 55) !== '' && actions.amountProblem(bid, 5) !== '' &&
  actions.amountProblem(bid, 12.5) !== '', 'amounts out of range or not whole are refused');
check(actions.amountProblem({ amount: { min: 1, max: 3 } }, 2) === '', 'no step: every whole amount in range');
// The protocol written once (docs/protocol.schema.json): every message type
// the client requests is a client message there, and the validator the
// browser tests run on every frame (tests/web/schema.mjs) finds a drift.
const { schema, validateMessage } = await import('./schema.mjs');
const requested = new Set();
for (const f of modules) {
  for (const m of fs.readFileSync(f, 'utf8').matchAll(/\brequest\(\s*'([a-z_]+)'/g)) requested.add(m[1]);
}
check(requested.size > 0 && [...requested].every((t) => schema['x-client'].includes(t)),
  `the client's requests (${[...requested].sort().join(', ')}) are client messages of the schema`);
const act = { v: 1, type: 'act', id: 3, decision: 2, action: 5 };
check(validateMessage('client', act).length === 0, 'an act as the schema writes it is valid');
check(validateMessage('client', { ...act, comment: 'x' }).length > 0, 'a client field the schema lacks is found');
check(validateMessage('client', { ...act, text: 'bid 10' }).length > 0, 'an act with both an action and a text is found');
check(validateMessage('client', { ...act, decision: -1 }).length > 0, 'a number out of its range is found');
check(validateMessage('client', { v: 1, type: 'chat' }).length > 0, 'a client message type the schema lacks is found');
const update = {
  v: 1, type: 'update', game_id: '0123456789abcdef0123456789abcdef', game: 'dml', seat: 0, decision: 1, to_act: 0,
  your_turn: true, over: false, hints: true, observation: {}, prompt: '', help: '', events: [{ seq: 0, kind: 'roll' }], seq: 1,
  actions: [{ id: 1, text: 'bid 10', amount: { min: 10, max: 50, step: 5 } }],
  seats: [{ seat: 0, kind: 'human', spec: 'human', taken: true, left: false }],
};
check(validateMessage('server', update).length === 0, 'an update as the schema writes it is valid');
const { seq, ...noSeq } = update;
check(seq === 1 && validateMessage('server', noSeq).length > 0, 'an update without a required field is found');
check(validateMessage('server', { ...update, extra: 1 }).length > 0, 'a server field the schema lacks is found');
check(validateMessage('server', { v: 1, type: 'error', code: 'busy', message: 'x' }).length > 0,
  'an error code the schema lacks is found');
// The examples of docs/protocol.md that are JSON (a block, or one message a
// line) follow the schema too; a string holding "..." stands for any.
const SERVER_ONLY = new Set(schema['x-server'].filter((t) => !schema['x-client'].includes(t)));
let examples = 0;
const wrong = [];
for (const block of fs.readFileSync(path.join(ROOT, 'docs', 'protocol.md'), 'utf8').matchAll(/```json\n([\s\S]*?)```/g)) {
  let msgs;
  try {
    msgs = [JSON.parse(block[1])];
  } catch {
    try {
      msgs = block[1].split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
    } catch {
      continue; // an example with elided parts ("...") outside strings
    }
  }
  for (const msg of msgs) {
    if (!msg || typeof msg.type !== 'string') continue;
    const direction = 're' in msg || SERVER_ONLY.has(msg.type) ? 'server' : 'client';
    const problems = validateMessage(direction, msg, schema, { elided: true });
    examples++;
    if (problems.length) wrong.push(`${direction} ${msg.type}: ${problems.slice(0, 3).join('; ')}`);
  }
}
check(examples >= 20 && wrong.length === 0,
  `the ${examples} examples of docs/protocol.md that are JSON follow the schema${wrong.length ? `: ${wrong.join(' | ')}` : ''}`);
console.log(failures ? `${failures} failed` : 'all passed');
process.exit(failures ? 1 : 0);
