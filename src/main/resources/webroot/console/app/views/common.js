// Small pieces several views share: numbers with their exact value, error text as the API gave
// it, the live-stream state line, form fields, and names from ARNs and redrive policies.

import * as api from '../api.js';
import {figure, h, replace} from '../dom.js';
import * as fmt from '../format.js';

export function num(n) {
  return figure(fmt.count(n), fmt.exactCount(n));
}

export function when(epochMillis) {
  return epochMillis == null ? '–' : h('time', {datetime: fmt.iso(epochMillis), title: fmt.iso(epochMillis)},
    fmt.time(epochMillis));
}

/** The queue name of an SQS ARN (arn:aws:sqs:region:account:name). */
export function arnName(arn) {
  return arn ? arn.slice(arn.lastIndexOf(':') + 1) : '';
}

/** {maxReceiveCount, name, arn} of a RedrivePolicy attribute, or null. */
export function parseRedrive(text) {
  if (!text) return null;
  try {
    const p = JSON.parse(text);
    const arn = p.deadLetterTargetArn;
    return {arn, name: arnName(arn), maxReceiveCount: Number(p.maxReceiveCount)};
  } catch {
    return null;
  }
}

/** A labelled form field: the label names the input by its id. */
export function field(id, label, input) {
  return h('div', {class: 'field'}, h('label', {for: id}, label), input);
}

/** {region, account, name} of an SQS ARN. */
export function arnParts(arn) {
  const [, , , region, account, name] = (arn ?? '').split(':');
  return {region, account, name};
}

/**
 * Shows `error` in `el` (a role=alert paragraph) as the API worded it. Server starting, stopping
 * and unreachable also raise the page's banner (main.js words it); 401 is the token dialog's
 * (api.js calls it).
 */
export function showError(el, error, ctx) {
  if (error?.name === 'AbortError') return;
  if (error instanceof api.ApiError && (error.status === 0 || error.code === 'ServiceUnavailable')) {
    ctx?.serverTrouble(error);
  }
  const text = error instanceof api.ApiError
    ? (error.status === 403 ? `Refused (403): ${error.message}` : error.text)
    : String(error?.message ?? error);
  replace(el, text);
  el.hidden = false;
}

export function clearError(el) {
  replace(el);
  el.hidden = true;
}

export function errorBox(id) {
  return h('p', {id, class: 'error', role: 'alert', hidden: true});
}

const STATES = {
  open: 'Live',
  retrying: 'Reconnecting…',
  paused: 'Live updates paused: the server has too many open consoles. Retrying in 30 s.',
  hidden: 'Live updates paused while this tab is hidden.',
  failed: 'Live updates stopped',
  ended: 'Live updates ended',
};

/**
 * The text for a stream state, into the #live-state element (data-state for tests and styles).
 * A stream that cannot reach the server raises the page's "cannot reach Sluice" banner.
 */
export function streamState(el, state, detail, ctx) {
  el.dataset.state = state;
  if (state === 'retrying' && detail?.error?.network) ctx?.serverTrouble(new api.ApiError(0, 'NetworkError', 'Cannot reach Sluice'));
  const extra = state === 'failed' && detail?.message ? `: ${detail.message}` : '';
  replace(el, STATES[state] + extra);
}

export function liveStateElement() {
  return h('span', {id: 'live-state', class: 'live-state', role: 'status', dataset: {state: 'connecting'}},
    'Connecting…');
}
