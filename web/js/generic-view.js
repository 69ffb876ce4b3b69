// generic-view.js: the table for any game without a view of its own.  It
// shows what every game gives a client (docs/clients.md): the observation as
// text (the server's text rendering when it sends one, else the observation
// JSON laid out), the log in words, the help and the legal actions as
// controls.  Every game is playable here (the "Text table" link).
import { el, fill, focusKeeper } from './dom.js';
import { actionControls, shortcuts } from './actions.js';
import { createLog } from './log.js';

export function createView(root, ctx) {
  const table = el('section', { class: 'panel generic-obs', 'aria-label': 'Table' });
  const side = el('div', { class: 'side' });
  const move = el('section', { class: 'panel move', 'aria-label': 'Your move' });
  const logView = createLog();
  const log = el('section', { class: 'panel log', 'aria-label': 'Log' }, el('h2', { text: 'Log' }), logView.element);
  side.append(move, log);
  fill(root, el('div', { class: 'table generic' }, table, side));
  let keys = new Map();
  const focus = focusKeeper(root, '.move button.action');
  return {
    render(snap) {
      focus.save();
      const text = typeof snap.obsText === 'string' && snap.obsText !== ''
        ? snap.obsText : JSON.stringify(snap.obs, null, 2);
      fill(table, el('h2', { text: 'Table' }), el('pre', { class: 'obs-text', tabindex: 0, text }));
      keys = shortcuts(snap.actions || []);
      fill(move, el('h2', { text: snap.toAct ? 'Your move' : 'Waiting' }),
        snap.prompt ? el('p', { class: 'prompt', text: snap.prompt }) : null,
        snap.help ? el('p', { class: 'help', text: snap.help }) : null,
        actionControls(snap.actions || [], ctx.submit, { keys }));
      logView.update(snap.log || []);
      focus.restore();
    },
    keys: () => keys,
  };
}
