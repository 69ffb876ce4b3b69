// scrollcue.js: a cue on a box that scrolls sideways (a map or a market
// wider than a phone): while more lies past its right edge, a fade and a
// "scroll →" tag show on that edge, and a "←" on the left once it has been
// scrolled; each goes when there is nothing more that way.  A view marks
// such a box with the class `hscroll` and calls scrollCues(root) after it
// draws; a box already fitted with its cue is left alone.
import { el } from './dom.js';

export function scrollCues(root) {
  for (const box of root.querySelectorAll('.hscroll')) {
    if (box.dataset.cue === 'on') continue;
    box.dataset.cue = 'on';
    const right = el('span', { class: 'scroll-cue right', 'aria-hidden': 'true', text: 'scroll →' });
    const left = el('span', { class: 'scroll-cue left', 'aria-hidden': 'true', text: '←' });
    const wrap = el('div', { class: 'hscroll-wrap' });
    box.replaceWith(wrap);
    wrap.append(box, left, right);
    const update = () => {
      const rest = box.scrollWidth - box.clientWidth - box.scrollLeft;
      const more = rest > 2;
      right.hidden = !more;
      left.hidden = box.scrollLeft <= 2;
      wrap.classList.toggle('more-right', more);
      wrap.classList.toggle('more-left', box.scrollLeft > 2);
    };
    box.addEventListener('scroll', update, { passive: true });
    if (typeof ResizeObserver === 'function') new ResizeObserver(update).observe(box);
    update();
  }
}
