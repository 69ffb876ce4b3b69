// dice.js: a die face drawn with pips (a 3x3 grid), the same in every font.
import { el } from './dom.js';

const PIPS = [[], [4], [0, 8], [0, 4, 8], [0, 2, 6, 8], [0, 2, 4, 6, 8], [0, 2, 3, 5, 6, 8]];

// A face for n in 1..6 (anything else draws a blank face).
export function die(n) {
  const pips = Number.isInteger(n) && n >= 1 && n <= 6 ? PIPS[n] : [];
  const face = el('span', { class: 'die', 'aria-hidden': 'true', dataset: { value: pips.length ? n : '' } });
  for (let i = 0; i < 9; i++) face.appendChild(el('span', { class: pips.includes(i) ? 'pip on' : 'pip' }));
  return face;
}
