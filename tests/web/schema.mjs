// tests/web/schema.mjs: the browser tests' side of the protocol written once.
// Every WebSocket message a test page sends or receives is validated against
// docs/protocol.schema.json (issue 17, point 6): a field the client or the
// server adds, drops or mistypes without the schema saying so fails the
// browser tests (run.mjs), and static.mjs shows such drifts are found.
//
//   validateMessage('client' | 'server', msg) -> [] or a list of problems
//
// A small validator of the JSON Schema keywords the schema uses ($ref,
// type, const, enum, properties, required, additionalProperties,
// propertyNames, items, min/maxItems, maxProperties, minimum, maximum,
// min/maxLength in UTF-8 bytes as the server counts them, pattern, oneOf,
// not), so that it needs no npm package and runs in static.mjs too.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SCHEMA_PATH = path.join(ROOT, 'docs', 'protocol.schema.json');
export const schema = JSON.parse(fs.readFileSync(SCHEMA_PATH, 'utf8'));

const bytes = (s) => Buffer.byteLength(s, 'utf8');

function typeOf(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (Number.isInteger(v)) return 'integer';
  return typeof v; // number, string, boolean, object
}

function resolve(root, node) {
  while (node && node.$ref) {
    const name = node.$ref.replace(/^#\/\$defs\//, '');
    node = root.$defs[name];
    if (!node) throw new Error(`protocol.schema.json: no $defs entry ${name}`);
  }
  return node;
}

// The problems of value v against node, each "at: what".  opts.elided: a
// string holding "..." stands for any string (the examples of protocol.md).
export function validate(v, node, at = '', root = schema, opts = {}) {
  node = resolve(root, node);
  const out = [];
  if (!node || node === true) return out;
  if ('type' in node) {
    const types = Array.isArray(node.type) ? node.type : [node.type];
    const t = typeOf(v);
    if (!types.includes(t) && !(t === 'integer' && types.includes('number'))) {
      return [`${at || '(message)'}: ${JSON.stringify(v)} is not ${types.join(' or ')}`];
    }
  }
  if ('const' in node && JSON.stringify(v) !== JSON.stringify(node.const)) out.push(`${at}: must be ${JSON.stringify(node.const)}`);
  if (node.enum && !node.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) out.push(`${at}: ${JSON.stringify(v)} is not one of ${JSON.stringify(node.enum)}`);
  if (typeof v === 'number') {
    if ('minimum' in node && v < node.minimum) out.push(`${at}: ${v} < ${node.minimum}`);
    if ('maximum' in node && v > node.maximum) out.push(`${at}: ${v} > ${node.maximum}`);
  }
  if (typeof v === 'string' && !(opts.elided && v.includes('...'))) {
    if ('maxLength' in node && bytes(v) > node.maxLength) out.push(`${at}: longer than ${node.maxLength} bytes`);
    if ('minLength' in node && bytes(v) < node.minLength) out.push(`${at}: shorter than ${node.minLength} bytes`);
    if (node.pattern && !new RegExp(node.pattern, 'u').test(v)) out.push(`${at}: ${JSON.stringify(v)} does not match ${node.pattern}`);
  }
  if (Array.isArray(v)) {
    if ('minItems' in node && v.length < node.minItems) out.push(`${at}: fewer than ${node.minItems} items`);
    if ('maxItems' in node && v.length > node.maxItems) out.push(`${at}: more than ${node.maxItems} items`);
    if (node.items) v.forEach((x, i) => out.push(...validate(x, node.items, `${at}[${i}]`, root, opts)));
  }
  if (typeOf(v) === 'object') {
    const keys = Object.keys(v);
    const props = node.properties || {};
    if ('maxProperties' in node && keys.length > node.maxProperties) out.push(`${at}: more than ${node.maxProperties} keys`);
    for (const k of node.required || []) if (!(k in v)) out.push(`${at}.${k}: missing`);
    for (const k of keys) {
      if (node.propertyNames) out.push(...validate(k, node.propertyNames, `${at}{${k}}`, root, opts));
      if (k in props) out.push(...validate(v[k], props[k], `${at}.${k}`, root, opts));
      else if (node.additionalProperties === false) out.push(`${at}.${k}: not in the schema`);
      else if (typeof node.additionalProperties === 'object') out.push(...validate(v[k], node.additionalProperties, `${at}.${k}`, root, opts));
    }
  }
  if (node.oneOf) {
    const ok = node.oneOf.filter((s) => validate(v, s, at, root, opts).length === 0).length;
    if (ok !== 1) {
      // say why the closest alternative refused it
      const why = node.oneOf.map((s) => validate(v, s, at, root, opts)).sort((a, b) => a.length - b.length)[0];
      out.push(ok ? `${at}: matches ${ok} alternatives, not one` : (why && why.length ? why.join('; ') : `${at}: matches none`));
    }
  }
  if (node.not && validate(v, node.not, at, root, opts).length === 0) out.push(`${at}: matches what it must not`);
  return out;
}

// A message's problems: the schema's definition of its type in that
// direction ('client': sent by the browser, 'server': received).
export function validateMessage(direction, msg, root = schema, opts = {}) {
  if (typeOf(msg) !== 'object' || typeof msg.type !== 'string') return ['not an object with a type'];
  const names = root[`x-${direction}`] || [];
  if (!names.includes(msg.type)) return [`the ${direction} message type "${msg.type}" is not in the schema`];
  return validate(msg, root.$defs[`${direction}.${msg.type}`], msg.type, root, opts);
}
