// log.js: the game's log in words, newest last, in an ARIA log region so a
// screen reader announces the new lines (and only those: lines are appended,
// the list is not redrawn).  Each entry is an event as the seat sees it
// ({seq, text, ...}); only `text` is shown, through textContent.
import { el } from './dom.js';

const SHOWN = 1000; // the last lines kept in the page; the replay viewer reads the whole log

function line(e, textOf) {
  return el('li', { class: `ev ev-${String(e.kind || 'x').replace(/[^a-z_]/g, '')}`,
    value: typeof e.seq === 'number' ? e.seq + 1 : undefined, text: textOf(e.text || '') });
}

// A log view: `element` goes in the page once; update(events) shows the log
// `events` (sorted by seq).  New events at the end are appended; anything
// else (a gap filled from history) redraws the list.  options.textOf(text)
// words a line as the game's view wants it (names for codes, web/games/).
export function createLog(options = {}) {
  const textOf = typeof options.textOf === 'function' ? options.textOf : (t) => t;
  const list = el('ol', { class: 'log-lines', role: 'log', 'aria-live': 'polite', tabindex: 0, dataset: { key: 'log' } });
  let firstSeq = null;
  let count = 0;
  return {
    element: list,
    // The next update draws every line again (the words of textOf changed).
    redraw() {
      list.replaceChildren();
      count = 0;
      firstSeq = null;
    },
    update(events) {
      const first = events.length ? events[0].seq : null;
      const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 30;
      if (first !== firstSeq || events.length < count) {
        list.replaceChildren();
        count = 0;
        firstSeq = first;
      }
      const from = Math.max(count, events.length - SHOWN);
      for (let i = from; i < events.length; i++) list.appendChild(line(events[i], textOf));
      count = events.length;
      while (list.childElementCount > SHOWN) list.firstElementChild.remove();
      // Follow the newest line, unless the player scrolled back to read.
      if (atEnd || from === 0) queueMicrotask(() => { list.scrollTop = list.scrollHeight; });
    },
  };
}
