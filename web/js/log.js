// log.js: the game's log in words, newest last, in an ARIA log region so a
// screen reader announces new lines.  Each entry is an event as the seat sees
// it ({seq, text, ...}); only `text` is shown, through textContent.
import { el } from './dom.js';

const SHOWN = 1000; // the last lines drawn; the replay viewer reads the whole log

export function logList(events) {
  const from = Math.max(0, events.length - SHOWN);
  const list = el('ol', { class: 'log-lines', role: 'log', 'aria-live': 'polite', tabindex: 0, dataset: { key: 'log' } });
  for (let i = from; i < events.length; i++) {
    const e = events[i];
    list.appendChild(el('li', { class: `ev ev-${String(e.kind || 'x').replace(/[^a-z_]/g, '')}`,
      value: typeof e.seq === 'number' ? e.seq + 1 : undefined, text: e.text || '' }));
  }
  // Keep the newest line in sight once the list is in the page.
  queueMicrotask(() => { list.scrollTop = list.scrollHeight; });
  return list;
}
