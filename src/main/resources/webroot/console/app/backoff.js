// A queue's redelivery backoff as the Backoff tab shows and checks it (pure, so Node tests it):
// the form's values read and checked as the server checks them, and the waits' ceilings per receive
// (design: redelivery-backoff.md). The server checks again: this only saves a round trip.

export const MAX_SECONDS = 43200;

/** {baseSeconds, maxSeconds} from the form's two texts, or {problem} saying what is wrong. */
export function readPolicy(baseText, maxText) {
  const base = wholeSeconds(baseText);
  const max = wholeSeconds(maxText);
  if (base == null || base < 1 || base > MAX_SECONDS) return {problem: `Base must be a whole number of seconds from 1 to ${MAX_SECONDS}.`};
  if (max == null || max < base || max > MAX_SECONDS) return {problem: `Max must be a whole number of seconds from the base (${base}) to ${MAX_SECONDS}.`};
  return {baseSeconds: base, maxSeconds: max};
}

function wholeSeconds(text) {
  const t = String(text ?? '').trim();
  return /^\d{1,9}$/.test(t) ? Number(t) : null;
}

/** The ceiling of the wait after the n-th receive, in seconds: min(max, base × 2^(n−1)). */
export function ceilingSeconds(policy, receiveCount) {
  return Math.min(policy.maxSeconds, policy.baseSeconds * 2 ** Math.max(0, Math.min(receiveCount - 1, 16)));
}

/** "0–5 s, 0–10 s, 0–20 s, then 0–300 s": the first ceilings until the max is reached (at most 6 shown). */
export function describe(policy) {
  if (!policy || policy.baseSeconds == null) return 'None: a message is visible again as soon as its visibility timeout runs out.';
  const parts = [];
  for (let n = 1; n <= 6; n++) {
    const c = ceilingSeconds(policy, n);
    if (c >= policy.maxSeconds) {
      parts.push(`${parts.length ? 'then ' : ''}0–${policy.maxSeconds} s`);
      return `After each expired receive, a wait of ${parts.join(', ')}.`;
    }
    parts.push(`0–${c} s`);
  }
  return `After each expired receive, a wait of ${parts.join(', ')}, … up to 0–${policy.maxSeconds} s.`;
}
