// Every call to /console/api/: the console header, the management token, and errors turned into
// ApiError with the code read from the AWS JSON error shape (design §2.6). Paths are relative to
// the page (/console/), as are the stream's and every asset's, so the pages work under a path
// prefix a proxy adds, once opened at <prefix>/console/: the server's redirect from /console to
// /console/ names the path from the root, so without the slash a proxy must rewrite that Location.

import {errorCode} from './format.js';

const TOKEN_KEY = 'sluice.console.token';
const listeners = {unauthorized: new Set(), unavailable: new Set()};

export class ApiError extends Error {
  constructor(status, code, message, retryAfterSeconds) {
    super(message || code || `HTTP ${status}`);
    this.status = status; // 0: the network failed, no answer
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** As the API worded it: "InvalidAttributeValue: …". */
  get text() {
    return this.code && this.code !== this.message ? `${this.code}: ${this.message}` : this.message;
  }
}

/** The token: sessionStorage (this tab), or localStorage when the user asked to remember it. */
export function token() {
  return sessionStorage.getItem(TOKEN_KEY) ?? localStorage.getItem(TOKEN_KEY);
}

export function setToken(value, remember) {
  sessionStorage.setItem(TOKEN_KEY, value);
  if (remember) localStorage.setItem(TOKEN_KEY, value);
  else localStorage.removeItem(TOKEN_KEY);
}

/**
 * Takes a #token=… fragment once and removes it from the address bar and history: a fragment
 * never reaches the server's logs, and removing it keeps it out of bookmarks and screenshots.
 * The rest of the fragment (a route) stays.
 */
export function takeTokenFromFragment() {
  const match = /(^#|&)token=([^&]*)/.exec(location.hash);
  if (!match) return;
  setToken(decodeURIComponent(match[2]), false);
  const rest = location.hash.replace(match[0], match[1] === '#' ? '#' : '').replace(/^#&/, '#');
  history.replaceState(null, '', location.pathname + location.search + (rest === '#' ? '' : rest));
}

/** Called with the ApiError on every 401 (the token dialog) and every 503 ServiceUnavailable (the banner). */
export function on(event, fn) {
  listeners[event].add(fn);
  return () => listeners[event].delete(fn);
}

export function headers(extra = {}) {
  const result = {'X-Sluice-Console': '1', ...extra};
  const t = token();
  if (t) result.Authorization = `Bearer ${t}`;
  return result;
}

/** An ApiError from a failed answer; the body may be anything a proxy sends, so parse with care. */
export async function errorOf(response) {
  let type = '';
  let message = '';
  try {
    const body = await response.json();
    type = body.__type ?? body.code ?? '';
    message = body.message ?? body.Message ?? '';
  } catch {
    message = response.statusText;
  }
  const retry = Number(response.headers.get('Retry-After')) || undefined;
  const error = new ApiError(response.status, errorCode(type) || `HTTP${response.status}`, message, retry);
  if (response.status === 401) listeners.unauthorized.forEach((fn) => fn(error));
  if (response.status === 503 && error.code !== 'TooManyStreams') listeners.unavailable.forEach((fn) => fn(error));
  return error;
}

async function call(path, init) {
  let response;
  try {
    response = await fetch(`api/${path}`, {cache: 'no-store', ...init});
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(0, 'NetworkError', 'Cannot reach Sluice');
  }
  if (!response.ok) throw await errorOf(response);
  return response.status === 204 ? {} : response.json();
}

/** GET /console/api/<path>; query values that are null or '' are left out. */
export function get(path, query, signal) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v != null && v !== '') params.set(k, v);
  const qs = params.toString();
  return call(qs ? `${path}?${qs}` : path, {headers: headers(), signal});
}

/** {account}/{region}/{name}, each segment URL-encoded, as §2.6's {q}. */
export function queuePath(account, region, name) {
  return [account, region, name].map(encodeURIComponent).join('/');
}

/**
 * One SQS action in the AWS JSON protocol (X-Amz-Target AmazonSQS.<action>), run by the server as
 * a signed SDK call would be, so the request and answer shapes are the SQS API reference's.
 */
export function sqs(region, action, body = {}, {signal, keepalive} = {}) {
  return call(`sqs/${encodeURIComponent(region)}`, {
    method: 'POST',
    headers: headers({'X-Amz-Target': `AmazonSQS.${action}`, 'Content-Type': 'application/x-amz-json-1.0'}),
    body: JSON.stringify(body),
    signal,
    keepalive,
  });
}

/** PUT /console/api/<path> with a JSON body. */
export function put(path, body) {
  return call(path, {method: 'PUT', headers: headers({'Content-Type': 'application/json'}), body: JSON.stringify(body)});
}

/** DELETE /console/api/<path>. */
export function remove(path) {
  return call(path, {method: 'DELETE', headers: headers()});
}
