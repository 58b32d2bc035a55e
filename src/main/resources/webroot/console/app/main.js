// The console's entry point: the shell, the hash router, and the states that belong to the whole
// page (token missing, server starting, network down). Each view mounts into <main> and answers
// {update(route), destroy()}, so leaving a page closes its stream and timers.
//
// Hooks for browser tests (ids and labels, stable on purpose; no test-only attributes):
//   shell      #main, #banner (server starting / stopping / unreachable; data-state="starting|stopping|offline"),
//              #live (role=status: notices), #theme-select (system|light|dark), #help-button
//   token      dialog#token-dialog, #token-input, #token-remember, #token-submit, #token-error
//   overview   #filter, #type-filter (all|standard|fifo|dlq), #all-accounts, table#queues, each
//              row tr[data-queue="<account>/<region>/<name>"] with a.queue-link, th[aria-sort],
//              sort buttons #sort-<column>, #page-prev/#page-next, #queues-total, #live-state;
//              #topics-tab / #queues-tab, table#topics (tr[data-topic=<arn>])
//   queue      h1#queue-name, #count-visible/-inflight/-delayed/-oldest, #queue-url, #queue-arn,
//              #copy-url, #copy-arn, figure#chart-depth[data-last-depth], #depth-summary,
//              figure#chart-rates, #range-fine/#range-coarse, #queue-gone (deleted), #live-state;
//              tabs #tab-<name> (role=tab) and panels #panel-<name> for messages, send,
//              settings, tags, deadletters (DLQs only), danger
//   messages   table#peek (tr[data-message-id]), #peek-refresh, #peek-prev, #peek-next,
//              dialog#message-dialog (#message-body, #message-pretty); #receive-max,
//              #receive-visibility, #receive-wait, #receive-button, ul#received
//              (li[data-message-id] with "Delete message <id>" buttons), #return-rest
//   send       form#send-form, #send-body, #send-delay, #send-group, #send-dedup,
//              #send-add-attribute (rows: "Attribute name/type/value <n>"), #send-submit,
//              #send-result (data-message-id), #send-error
//   settings   form#settings-form, #attr-<AttributeName>, #redrive-dlq, #redrive-max-receive,
//              #redrive-allow, #redrive-allow-sources, #attr-Policy, #settings-save,
//              #settings-result, #settings-error
//   tags       table#tags (tr[data-tag]), "Remove tag <key>" buttons, #tag-key, #tag-value, #tag-add, #tags-error
//   dlq        ul#dlq-sources, #redrive-destination, #redrive-custom, #redrive-rate,
//              #redrive-start, #redrive-error, table#move-tasks (tr[data-status], progress),
//              #cancel-task
//   danger     #purge-open, #delete-open, dialog#confirm-dialog, #confirm-input, #confirm-button,
//              #danger-result

import * as api from './api.js';
import {h, replace} from './dom.js';
import {showHelp} from './keys.js';
import {parseRoute, queueHash} from './route.js';
import {choice, setChoice} from './theme.js';
import {troubleState, troubleText} from './trouble.js';
import {askForToken} from './views/token.js';
import * as overview from './views/overview.js';
import * as queue from './views/queue.js';

const main = document.getElementById('main');
const banner = document.getElementById('banner');
const live = document.getElementById('live');

let status = null;
let current = null; // {key, view}

const ctx = {
  get status() { return status; },
  notice(text) { live.textContent = ''; setTimeout(() => { live.textContent = text; }, 50); },
  queueHash,
  serverTrouble: (error) => waitForServer(error),
};

function route() {
  api.takeTokenFromFragment(); // also when only the fragment changed (no reload)
  const r = parseRoute(location.hash);
  if (current?.key === r.key) {
    current.view.update(r);
    return;
  }
  current?.view.destroy();
  replace(main);
  const module = r.view === 'queue' ? queue : overview;
  current = {key: r.key, view: module.mount(main, r, ctx)};
  document.title = r.view === 'queue' ? `${r.name} · Sluice console` : 'Sluice console';
}

function rerender() {
  current?.view.destroy();
  current = null;
  route();
}

// Server starting or stopping (503) or unreachable: one banner and one retry loop against
// /console/api/status, 1 s doubling to 30 s (design §2.9), then the page is drawn again. Each
// failed attempt words the banner anew (trouble.js): a server that stops may come back starting.
let waiting = null;
function waitForServer(error) {
  if (waiting) return waiting;
  banner.hidden = false;
  let delay = 1000;
  waiting = new Promise((resolve) => {
    const show = (e) => {
      banner.dataset.state = troubleState(e);
      replace(banner, troubleText(e, delay / 1000));
    };
    show(error);
    const attempt = async () => {
      try {
        const s = await api.get('status');
        if (!s.ready) throw new api.ApiError(503, 'ServiceUnavailable', s.reason);
        status = s;
        banner.hidden = true;
        delete banner.dataset.state;
        waiting = null;
        resolve(s);
        rerender();
      } catch (e) {
        if (e.status === 401) return; // the token dialog takes over
        delay = Math.min(delay * 2, 30_000);
        show(e);
        setTimeout(attempt, delay);
      }
    };
    setTimeout(attempt, delay);
  });
  return waiting;
}

api.on('unavailable', (e) => waitForServer(e));
// Several calls may meet the same 401 at once (a page's loads, its stream): they share one
// dialog, and one token entered draws the page once.
let asking = null;
api.on('unauthorized', (e) => {
  if (asking) return;
  asking = askForToken(e).then(() => {
    asking = null;
    if (status) rerender();
    else boot();
  });
});

function shellControls() {
  const select = document.getElementById('theme-select');
  select.value = choice();
  select.addEventListener('change', () => setChoice(select.value));
  document.getElementById('help-button').addEventListener('click', showHelp);
}

async function boot() {
  try {
    status = await api.get('status');
    if (!status.ready) {
      await waitForServer(new api.ApiError(503, 'ServiceUnavailable', status.reason));
      return;
    }
  } catch (e) {
    if (e.status === 401) return; // askForToken runs boot again
    if (e.status === 0 || e.status === 503) {
      await waitForServer(e);
      return;
    }
    replace(main, h('p', {class: 'error', role: 'alert'}, e.text));
    return;
  }
  route();
}

api.takeTokenFromFragment();
shellControls();
addEventListener('hashchange', route);
boot();
