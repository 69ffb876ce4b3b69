// actions.js: the legal actions of the seat as controls.  Each action is the
// game's action JSON (docs/clients.md): {id, text, label, group, objects,
// amount?}.  Actions of one group sit together under one heading; the first
// nine get the keys 1-9, `done` gets Enter (and "d"), `undo` gets "u".  The
// game's view may name the groups (titles) and leave some groups out
// (because it shows them on its own table, e.g. cards in the hand).
import { el } from './dom.js';

// The actions in the order the controls show them: group by group, each
// group where its first action stands.
export function displayOrder(actions, skip = new Set()) {
  const groups = new Map();
  for (const a of actions) {
    if (skip.has(a.group)) continue;
    if (!groups.has(a.group)) groups.set(a.group, []);
    groups.get(a.group).push(a);
  }
  return [...groups.values()].flat();
}

// Which key triggers which action (a Map key -> action), numbered in the
// order the controls show them.
export function shortcuts(actions, skip) {
  const map = new Map();
  let n = 1;
  for (const a of displayOrder(actions, skip)) {
    if (a.group === 'done') map.set('Enter', a);
    else if (a.group === 'undo') map.set('u', a);
    else if (n <= 9) map.set(String(n++), a);
  }
  return map;
}

// The controls: a <div> of fieldsets, one per group, in the order the groups
// first appear.  submit(action, amount) is called on a click.
//   options.titles: {group: heading}; options.skip: Set of groups not drawn
//   options.keys: the shortcuts map (to print each key on its button)
export function actionControls(actions, submit, options = {}) {
  const titles = options.titles || {};
  const skip = options.skip || new Set();
  const keyOf = new Map();
  for (const [key, a] of options.keys || []) keyOf.set(a.id, key);
  const groups = new Map();
  for (const a of actions) {
    if (skip.has(a.group)) continue;
    if (!groups.has(a.group)) groups.set(a.group, []);
    groups.get(a.group).push(a);
  }
  const box = el('div', { class: 'actions' });
  for (const [group, list] of groups) {
    const set = el('fieldset', { class: 'action-group', dataset: { group } },
      el('legend', { text: titles[group] || group }));
    for (const a of list) set.appendChild(actionButton(a, submit, keyOf.get(a.id)));
    box.appendChild(set);
  }
  return box;
}

// Why v is not an amount action `a` may take ('' when it is): its range and
// its step, as the server checks them.  Every amount field uses it.
export function amountProblem(a, v) {
  const r = a.amount;
  const step = Number.isInteger(r.step) && r.step > 0 ? r.step : 1;
  if (Number.isInteger(v) && v >= r.min && v <= r.max && (v - r.min) % step === 0) return '';
  return `from ${r.min} to ${r.max}${step > 1 ? `, in steps of ${step}` : ''}`;
}

// One control: a button, or for an action with an amount, a number field and
// a button that submits it.
export function actionButton(a, submit, key) {
  const label = a.label || a.text || String(a.id);
  const keyHint = key ? el('kbd', { class: 'key', text: key === 'Enter' ? '⏎' : key }) : null;
  if (a.amount && Number.isInteger(a.amount.min) && Number.isInteger(a.amount.max)) {
    const input = el('input', {
      type: 'number', min: a.amount.min, max: a.amount.max, step: a.amount.step || 1,
      value: a.amount.min,
      'aria-label': `${label}: amount from ${a.amount.min} to ${a.amount.max}`,
      dataset: { key: `amount-${a.id}` },
    });
    const go = el('button', {
      type: 'button', class: `action group-${cssToken(a.group)}`, title: a.text || '',
      dataset: { key: `action-${a.id}`, action: a.id },
      onclick: () => {
        const v = Number(input.value);
        const problem = amountProblem(a, v);
        if (problem) {
          input.setCustomValidity(problem);
          input.reportValidity();
          return;
        }
        input.setCustomValidity('');
        submit(a, v);
      },
    }, keyHint, label);
    return el('span', { class: 'amount-action' }, input, go);
  }
  return el('button', {
    type: 'button', class: `action group-${cssToken(a.group)}`, title: a.text || '',
    dataset: { key: `action-${a.id}`, action: a.id },
    onclick: () => submit(a),
  }, keyHint, label);
}

// The notation of amount action `a` with amount v in place of the menu's
// (the notation of an action that chooses an amount ends with the amount,
// docs/clients.md); null when v is outside the range or not on its step.
// The server checks the amount again: it is a move typed by the player.
export function amountText(a, v) {
  if (!a || !a.amount || amountProblem(a, v)) return null;
  const text = String(a.text || '');
  return /\d+$/.test(text) ? text.replace(/\d+$/, String(v)) : null;
}

// A group or seat name made safe for a class name.
export function cssToken(s) {
  return String(s || '').toLowerCase().replace(/[^a-z0-9-]/g, '-').slice(0, 40);
}
