// Builds the DOM with createElement and textContent only. Message bodies, attributes and queue
// names are untrusted text, and the console's CSP allows no inline script or style, so nothing
// here parses HTML, and there is no way to pass a style attribute.

// Properties set as DOM properties rather than attributes (their live value matters).
const PROPERTIES = new Set(['value', 'checked', 'disabled', 'hidden', 'selected', 'open', 'multiple', 'required']);

/**
 * h('button', {id: 'purge', onclick: fn, 'aria-label': '…'}, 'Purge', …):
 * string props become attributes, on* functions listeners, `dataset` data-* attributes;
 * children are nodes, strings (text nodes), numbers, arrays or null (skipped).
 */
export function h(tag, props, ...children) {
  const el = tag.startsWith('svg:')
    ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4))
    : document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value == null || value === false) continue;
    if (key === 'style') throw new Error('style attributes are refused by the CSP; use a class');
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
    } else if (key === 'dataset') {
      Object.assign(el.dataset, value);
    } else if (key === 'class') {
      el.setAttribute('class', Array.isArray(value) ? value.filter(Boolean).join(' ') : value);
    } else if (PROPERTIES.has(key)) {
      el[key] = value;
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child == null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces every child of `el` with `children`. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Text as the user should read it, with the exact form for title and aria-label (big numbers). */
export function figure(shown, exact, tag = 'span') {
  return shown === exact
    ? h(tag, {class: 'num'}, shown)
    : h(tag, {class: 'num', title: exact, 'aria-label': exact}, shown);
}

/** A native <dialog> appended to the body, removed when closed. Esc closes it (the browser's own). */
export function modal(props, ...children) {
  const dialog = h('dialog', props, ...children);
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

/** Writes `text` to the clipboard, falling back to selecting it when the API is missing (http). */
export async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    flash(button, 'Copied');
  } catch {
    const field = h('textarea', {readonly: true, class: 'offscreen'}, text);
    document.body.append(field);
    field.select();
    const ok = document.execCommand('copy');
    field.remove();
    flash(button, ok ? 'Copied' : 'Copy failed');
  }
}

function flash(button, text) {
  const before = button.textContent;
  button.textContent = text;
  setTimeout(() => { button.textContent = before; }, 1200);
}
