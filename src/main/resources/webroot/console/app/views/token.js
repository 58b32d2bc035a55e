// The token dialog: opened by any 401 (design §2.3). The token goes to sessionStorage (this tab
// only) unless "remember on this browser" is ticked; no cookie is ever set, so no other site's
// page can make the browser send it.

import * as api from '../api.js';
import {h, modal} from '../dom.js';

let pending = null;

/** Resolves once a token has been entered (the caller then retries); one dialog at a time. */
export function askForToken(error) {
  if (pending) return pending;
  pending = new Promise((resolve) => {
    const wrong = error?.code === 'InvalidToken' || Boolean(api.token());
    const input = h('input', {id: 'token-input', type: 'password', autocomplete: 'off', required: true,
      spellcheck: 'false', 'aria-describedby': 'token-help'});
    const remember = h('input', {id: 'token-remember', type: 'checkbox'});
    const problem = h('p', {id: 'token-error', class: 'error', role: 'alert', hidden: !wrong},
      wrong ? 'That token was refused. Check sluice.managementToken.' : '');
    const form = h('form', {method: 'dialog', onsubmit: (e) => {
      e.preventDefault();
      if (!input.value.trim()) return;
      api.setToken(input.value.trim(), remember.checked);
      dialog.close();
    }},
    h('h2', {id: 'token-title'}, 'Management token'),
    h('p', {id: 'token-help'}, 'This Sluice requires its management token (sluice.managementToken) for the console. ',
      'It is kept for this tab only unless you tick the box.'),
    h('label', {for: 'token-input'}, 'Token'), input, problem,
    h('label', {class: 'check'}, remember, ' Remember on this browser'),
    h('div', {class: 'actions'}, h('button', {type: 'submit', id: 'token-submit', class: 'primary'}, 'Use token')));
    const dialog = modal({id: 'token-dialog', 'aria-labelledby': 'token-title'}, form);
    // Esc would leave the page with nothing to show; keep the dialog until a token is given.
    dialog.addEventListener('cancel', (e) => e.preventDefault());
    dialog.addEventListener('close', () => {
      pending = null;
      resolve();
    });
    input.focus();
  });
  return pending;
}
