// Numbers, rates, ages, bytes and times as the console shows them (design §2.9): exact below
// 10,000, compact above with the exact value kept for title and aria-label. Pure functions with the
// locale passed in, so node --test can pin it; the pages pass undefined (the browser's locale).

const COMPACT_FROM = 10_000;
const cache = new Map();

function numberFormat(locale, options) {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, options);
    cache.set(key, f);
  }
  return f;
}

/** The exact count, grouped: 1234567 → "1,234,567". */
export function exactCount(n, locale) {
  if (n == null || Number.isNaN(n)) return '–';
  return numberFormat(locale, {maximumFractionDigits: 0}).format(n);
}

/** A count as shown in tables: "9,876" below 10,000, "12.3K", "4.5M" above. */
export function count(n, locale) {
  if (n == null || Number.isNaN(n)) return '–';
  if (Math.abs(n) < COMPACT_FROM) return exactCount(n, locale);
  return numberFormat(locale, {notation: 'compact', maximumFractionDigits: 1}).format(n);
}

/** Both forms at once, for figure(): {text, exact}. */
export function countParts(n, locale) {
  return {text: count(n, locale), exact: exactCount(n, locale)};
}

/** Messages per second: "0", "0.4/s", "12/s", "1.2K/s". */
export function rate(perSecond, locale) {
  if (perSecond == null || Number.isNaN(perSecond)) return '–';
  if (perSecond === 0) return '0';
  if (Math.abs(perSecond) >= COMPACT_FROM) return `${count(perSecond, locale)}/s`;
  const digits = Math.abs(perSecond) < 10 ? 1 : 0;
  const shown = numberFormat(locale, {maximumFractionDigits: digits}).format(perSecond);
  // A rate that rounds to 0 is still not 0: say it is below 0.1.
  return shown === numberFormat(locale, {}).format(0) ? `<${numberFormat(locale, {}).format(0.1)}/s` : `${shown}/s`;
}

/** An age or duration in milliseconds: "0 s", "45 s", "12 min", "3 h 5 min", "2 d", "2 d 4 h". */
export function age(millis) {
  if (millis == null || Number.isNaN(millis)) return '–';
  const s = Math.max(0, Math.floor(millis / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const hours = Math.floor(min / 60);
  if (hours < 24) return min % 60 ? `${hours} h ${min % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** Bytes in B, KiB or MiB (SQS limits are binary: 256 KiB, 1 MiB). */
export function bytes(n, locale) {
  if (n == null || Number.isNaN(n)) return '–';
  if (n < 1024) return `${exactCount(n, locale)} B`;
  const f = numberFormat(locale, {maximumFractionDigits: 1});
  if (n < 1024 * 1024) return `${f.format(n / 1024)} KiB`;
  return `${f.format(n / (1024 * 1024))} MiB`;
}

/** A local date and time for an epoch millisecond; iso() is the title beside it. */
export function time(epochMillis, locale, timeZone) {
  if (epochMillis == null) return '–';
  return new Intl.DateTimeFormat(locale, {dateStyle: 'short', timeStyle: 'medium', timeZone}).format(epochMillis);
}

export function clock(epochMillis, locale, timeZone) {
  if (epochMillis == null) return '–';
  return new Intl.DateTimeFormat(locale, {timeStyle: 'short', timeZone}).format(epochMillis);
}

export function iso(epochMillis) {
  return epochMillis == null ? '' : new Date(epochMillis).toISOString();
}

/** The error code of an AWS JSON error's __type: the text after the last '#', if any. */
export function errorCode(type) {
  if (!type) return '';
  const at = type.lastIndexOf('#');
  return at >= 0 ? type.slice(at + 1) : type;
}
