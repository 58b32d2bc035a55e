// Light and dark themes: the system's choice by default (prefers-color-scheme), or the one the
// user picked, kept in localStorage. The colours are CSS custom properties on :root; charts read
// them (cssVar) and redraw when onThemeChange fires, since a canvas does not follow CSS.

const KEY = 'sluice.console.theme';
const media = matchMedia('(prefers-color-scheme: dark)');
const listeners = new Set();

export function choice() {
  return localStorage.getItem(KEY) ?? 'system';
}

/** 'light' or 'dark', as shown now. */
export function current() {
  const c = choice();
  return c === 'system' ? (media.matches ? 'dark' : 'light') : c;
}

export function setChoice(value) {
  if (value === 'system') localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, value);
  apply();
}

function apply() {
  document.documentElement.dataset.theme = current();
  listeners.forEach((fn) => fn(current()));
}

export function onThemeChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function cssVar(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

media.addEventListener('change', () => { if (choice() === 'system') apply(); });
apply();
