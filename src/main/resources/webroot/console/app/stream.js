// The live-update stream: server-sent events read over fetch (EventSource cannot send the
// Authorization header, design §2.7). It reconnects after network failures (1 s doubling to
// 30 s), pauses when the server has too many streams, and closes while the tab is hidden for 30 s,
// since a browser keeps only six connections per origin over HTTP/1.1; it reopens when shown.

/** Splits text/event-stream text into events; feed it decoded chunks in order. */
export class EventParser {
  constructor(onEvent) {
    this.onEvent = onEvent;
    this.buffer = '';
    this.reset();
  }

  reset() {
    this.event = '';
    this.data = [];
  }

  push(chunk) {
    this.buffer += chunk;
    // A line ends at CRLF, LF or CR; a CR at the end of a chunk may be half a CRLF, so keep it.
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer[i];
      if (c !== '\n' && c !== '\r') continue;
      if (c === '\r' && i === this.buffer.length - 1) break;
      this.line(this.buffer.slice(start, i));
      if (c === '\r' && this.buffer[i + 1] === '\n') i++;
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
  }

  line(line) {
    if (line === '') {
      if (this.data.length) this.onEvent(this.event || 'message', this.data.join('\n'));
      this.reset();
      return;
    }
    if (line.startsWith(':')) return; // a comment, such as the server's ": ping"
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
  }
}

const defaults = {
  retryMillis: 1000,
  maxRetryMillis: 30_000,
  hiddenCloseMillis: 30_000,
  pausedMillis: 30_000,
};

/**
 * Opens `url` and calls onEvent(name, parsedJson) per event and onState(state, detail) when the
 * connection changes: 'open', 'retrying' (detail: {delay, error}; error.network when no answer
 * came, else the 5xx ApiError or nothing when the server ended the stream), 'paused' (TooManyStreams),
 * 'hidden', 'failed' (an error answer that retrying will not mend, detail: {status, code,
 * message}), 'ended' (after a 'gone' event). Answers {close()}. `env` replaces fetch, timers and
 * the document for tests.
 */
export function openStream(url, {headers, onEvent, onState, errorOf}, env = {}) {
  const o = {...defaults, ...env};
  const fetchFn = o.fetch ?? globalThis.fetch.bind(globalThis);
  const setT = o.setTimeout ?? globalThis.setTimeout.bind(globalThis);
  const clearT = o.clearTimeout ?? globalThis.clearTimeout.bind(globalThis);
  const doc = o.document ?? globalThis.document;

  let controller = null;
  let timer = null;
  let hiddenTimer = null;
  let delay = o.retryMillis;
  let closed = false;
  let suspended = false;

  const later = (ms, fn) => { clearT(timer); timer = setT(fn, ms); };

  async function connect() {
    if (closed || suspended) return;
    controller = new AbortController();
    const mine = controller;
    let response;
    try {
      response = await fetchFn(url, {headers: headers(), signal: mine.signal, cache: 'no-store'});
    } catch (e) {
      return mine.signal.aborted ? undefined : retry({network: true});
    }
    if (!response.ok) {
      const error = errorOf ? await errorOf(response) : {status: response.status, code: `HTTP${response.status}`};
      if (error.code === 'TooManyStreams') {
        onState('paused', error);
        later((error.retryAfterSeconds ?? 0) * 1000 || o.pausedMillis, connect);
      } else if (response.status === 503 || response.status === 502 || response.status === 504) {
        retry(error);
      } else {
        onState('failed', error);
      }
      return;
    }
    delay = o.retryMillis;
    onState('open');
    let ended = false;
    const parser = new EventParser((name, data) => {
      let parsed;
      try { parsed = JSON.parse(data); } catch { parsed = data; }
      if (name === 'gone') ended = true;
      onEvent(name, parsed);
    });
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    try {
      for (;;) {
        const {done, value} = await reader.read();
        if (done) break;
        parser.push(decoder.decode(value, {stream: true}));
        if (ended) break;
      }
    } catch {
      // The connection broke or we aborted it; below decides which.
    }
    if (mine.signal.aborted || closed) return;
    if (ended) {
      closed = true;
      mine.abort();
      onState('ended');
      return;
    }
    retry(); // the server ended the stream (it stopped, or our queue of writes stayed full)
  }

  function retry(detail) {
    if (closed || suspended) return;
    onState('retrying', {delay, error: detail});
    later(delay, connect);
    delay = Math.min(delay * 2, o.maxRetryMillis);
  }

  function onVisibility() {
    if (closed) return;
    if (doc.hidden) {
      clearT(hiddenTimer);
      hiddenTimer = setT(() => {
        suspended = true;
        clearT(timer);
        controller?.abort();
        onState('hidden');
      }, o.hiddenCloseMillis);
    } else {
      clearT(hiddenTimer);
      if (suspended) {
        suspended = false;
        delay = o.retryMillis;
        connect();
      }
    }
  }

  doc?.addEventListener('visibilitychange', onVisibility);
  connect();
  if (doc?.hidden) onVisibility(); // opened in a background tab
  return {
    close() {
      closed = true;
      clearT(timer);
      clearT(hiddenTimer);
      controller?.abort();
      doc?.removeEventListener('visibilitychange', onVisibility);
    },
  };
}
