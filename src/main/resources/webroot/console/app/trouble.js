// The banner's words when the server cannot answer: unreachable, starting, or stopping. Pure, so
// the choice is tested under node. Every 503 ServiceUnavailable shares one code; the message tells
// a server that is starting from one that is shutting down or whose console stopped.

const STOPPING = /shutting down|stopping|stopped/i;

/** 'offline' (no answer), 'stopping' or 'starting': the banner's data-state. */
export function troubleState(error) {
  if (!error || error.status === 0) return 'offline';
  return STOPPING.test(error.message ?? '') ? 'stopping' : 'starting';
}

/** The banner's text for `error`, with the next retry `delaySeconds` away. */
export function troubleText(error, delaySeconds) {
  switch (troubleState(error)) {
    case 'offline': return `Cannot reach Sluice; retrying in ${delaySeconds} s.`;
    case 'stopping': return `Sluice is stopping or restarting; retrying in ${delaySeconds} s.`;
    default: {
      // The server's reason usually says "Sluice is starting" itself; do not say it twice.
      const reason = error.message ?? '';
      const said = /^Sluice is starting/i.test(reason) ? reason : `Sluice is starting${reason ? `: ${reason}` : ''}`;
      return `${said.replace(/\.?$/, '.')} Retrying in ${delaySeconds} s.`;
    }
  }
}
