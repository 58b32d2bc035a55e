// The overview's sparkline series, as pure functions: which points each row shown has, kept to
// the fine history's length (fineSlots from /console/api/status, design §2.6).

/** `points` with nulls in front up to `slots` (no sample kept then), or its last `slots`. */
export function padded(points, slots) {
  if (!(slots > 0)) return [];
  const series = (points ?? []).slice(-slots);
  return [...new Array(slots - series.length).fill(null), ...series];
}

/**
 * The series after a tick: one per row shown now (rows no longer shown are dropped), each with
 * the tick's point for its key appended (null when the tick has none); a row new to the page
 * starts as `slots` nulls, as the stream's tick is documented to be read.
 */
export function afterTick(previous, keys, tickDepth, slots) {
  const next = new Map();
  for (const key of keys) {
    const before = previous.get(key) ?? [];
    next.set(key, padded([...padded(before, slots), tickDepth?.[key] ?? null], slots));
  }
  return next;
}
