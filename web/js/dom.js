// dom.js: the one way this client builds the page.  Every piece of text that
// comes from the server (names, labels, logs, help, errors) goes in through
// textContent (the `text` helper or a string child of `el`), never through
// innerHTML, so no server or player text is ever parsed as HTML.

// el('button', {class: 'x', onclick: f, 'aria-label': 'y'}, 'text', child, ...)
// Attributes: `class`, `text`, `on<event>` (a function), `dataset` (an
// object), booleans (true sets the attribute, false/null/undefined skips it),
// anything else through setAttribute (never `innerHTML`, refused below).
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === 'innerHTML' || key === 'outerHTML') throw new Error('dom.js: no HTML from strings');
      if (key === 'class') node.className = value;
      else if (key === 'text') node.textContent = String(value);
      else if (key === 'dataset') Object.assign(node.dataset, value);
      else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
      else if (key === 'value') node.value = value;
      else if (key === 'checked' || key === 'selected' || key === 'disabled') node[key] = !!value;
      else node.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node) node.appendChild(child);
    else node.appendChild(document.createTextNode(String(child)));
  }
}

// Replaces the children of `node` with `children` (same rules as el).
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

// Puts the keyboard focus back on the control with the same data-key after a
// re-render, so a player moving through the buttons with Tab keeps their place.
export function focusKey(root) {
  const active = document.activeElement;
  return active && root.contains(active) && active.dataset ? active.dataset.key : undefined;
}
// When that control is gone (its action was taken), the focus goes to the
// first node matching `fallback` (e.g. the next decision's first control),
// so a keyboard player is never dropped back at the top of the page.
// Returns whether it placed the focus.
export function restoreFocus(root, key, fallback) {
  if (key === undefined) return false;
  for (const node of root.querySelectorAll('[data-key]')) {
    if (node.dataset.key === key && !node.disabled) {
      node.focus();
      return true;
    }
  }
  const next = fallback ? root.querySelector(fallback) : null;
  if (next) next.focus();
  return !!next;
}

// Keeps a keyboard player's place across re-renders of `root`: call save()
// before drawing and restore() after.  When the focused control is gone and
// no control of the next decision is there yet (the others are playing), the
// focus lands on the first such control as soon as one appears.
export function focusKeeper(root, fallback) {
  let waiting = false;
  let key;
  return {
    save() {
      key = focusKey(root);
    },
    restore() {
      if (key !== undefined) {
        waiting = !restoreFocus(root, key, fallback);
        return;
      }
      const active = document.activeElement;
      if (waiting && (!active || active === document.body)) {
        const next = root.querySelector(fallback);
        if (next) {
          next.focus();
          waiting = false;
        }
      }
    },
  };
}

// svg('line', {x1: 0, ...}, child, ...): an SVG element, by the same rules as
// el() (attributes through setAttribute, text through textContent).
const SVG_NS = 'http://www.w3.org/2000/svg';
export function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === 'innerHTML' || key === 'outerHTML') throw new Error('dom.js: no HTML from strings');
      if (key === 'class') node.setAttribute('class', value);
      else if (key === 'text') node.textContent = String(value);
      else if (key === 'dataset') Object.assign(node.dataset, value);
      else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(node, children);
  return node;
}
