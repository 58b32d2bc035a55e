// Keyboard use beyond what native controls give (design §2.9): "/" focuses the filter, "?" shows
// the keys, ↑/↓ move through the rows of a table whose <tbody> has class "rows" (one row in the
// tab order at a time: roving tabindex), Enter opens the focused row. Esc is the dialog's own.

import {h, modal} from './dom.js';

const KEYS = [
  ['/', 'Focus the filter'],
  ['↑ ↓', 'Move through the rows of a table'],
  ['Enter', 'Open the focused row'],
  ['← →', 'Move between tabs'],
  ['Esc', 'Close a dialog'],
  ['?', 'Show these keys'],
];

function typing(target) {
  return target.closest?.('input, textarea, select, [contenteditable]');
}

export function showHelp() {
  const close = h('button', {type: 'button', id: 'help-close', onclick: () => dialog.close()}, 'Close');
  const dialog = modal({id: 'help-dialog', 'aria-labelledby': 'help-title'},
    h('h2', {id: 'help-title'}, 'Keyboard'),
    h('dl', {class: 'keys'}, KEYS.map(([k, what]) => [h('dt', null, h('kbd', null, k)), h('dd', null, what)])),
    h('div', {class: 'actions'}, close));
  close.focus();
}

/**
 * Gives one row of a row table the tab stop and the others -1 (call after rendering rows): the
 * row that had it when it is still there (rows updated in place keep it), else the first.
 */
export function rovingRows(tbody) {
  const rows = [...tbody.querySelectorAll(':scope > tr')];
  const stop = rows.find((row) => row.getAttribute('tabindex') === '0') ?? rows[0];
  rows.forEach((row) => { row.tabIndex = row === stop ? 0 : -1; });
}

function moveInRows(row, step) {
  const rows = [...row.parentElement.querySelectorAll(':scope > tr')];
  const next = rows[rows.indexOf(row) + step];
  if (!next) return;
  row.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
}

document.addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || document.querySelector('dialog[open]')) return;
  const row = e.target.closest?.('tbody.rows > tr');
  if (row && e.target === row) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      moveInRows(row, e.key === 'ArrowDown' ? 1 : -1);
      return;
    }
    if (e.key === 'Enter') {
      e.preventDefault();
      row.dispatchEvent(new CustomEvent('open', {bubbles: true}));
      return;
    }
  }
  if (typing(e.target)) return;
  if (e.key === '/') {
    const filter = document.getElementById('filter');
    if (filter) {
      e.preventDefault();
      filter.focus();
      filter.select();
    }
  } else if (e.key === '?') {
    e.preventDefault();
    showHelp();
  }
});
