package dev.sluice.console;

import dev.sluice.api.QueueKey;
import dev.sluice.api.topics.TopicKey;
import dev.sluice.engine.QueueSample;
import dev.sluice.engine.TopicSample;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The console's bounded history (design/console.md §2.4): the latest row of every sampled queue and
 * topic, and a {@link Series} for at most {@code maxSeries} of them. Time is passed in; no Vert.x.
 * Owned by the sampler's one-thread worker ("sluice-console"): every method runs there, readers
 * included, so nothing here is locked.
 *
 * <p>A series is made at a queue's (or topic's) first non-zero sample and dropped after a full hour of
 * zeros; a queue absent from a tick, or sampled with a new generation, was deleted and loses its row
 * and series at that tick. At the bound, a newly active queue takes the series idle longest if that
 * one has been idle for at least the fine ring's span (its fine chart is flat by then), else it gets
 * none. A pinned queue (open in a stream) keeps its series and gets one at once, taking the series
 * idle longest whatever its idleness.
 */
public final class ConsoleHistory {
  public static final int FINE_SLOTS = 120;
  public static final int COARSE_SLOTS = 60;
  public static final long COARSE_MILLIS = 60_000;
  /** A series with no activity for this long is dropped. */
  static final long IDLE_DROP_MILLIS = 3_600_000;

  private final int sampleMillis;
  private final int maxSeries;
  private final Map<QueueKey, QueueRow> queues = new HashMap<>();
  private final Map<TopicKey, TopicRow> topics = new HashMap<>();
  /** Every series, least recently active first: a series is touched (moved last) only when active. */
  private final LinkedHashMap<Object, Series> series = new LinkedHashMap<>(16, 0.75f, true);
  private final Map<QueueKey, Integer> pins = new HashMap<>();
  private Map<String, List<String>> deadLetterSources = Map.of();
  /** Whether a queue came, went or changed its redrive target this tick: the sources are inverted again. */
  private boolean redriveChanged;
  /** What the streams of one tick share, made once per key; emptied once the tick's events are built. */
  private final Map<Object, Object> shared = new HashMap<>();
  private long originMillis = -1;
  private long tick = -1;
  private long minute;
  private long timeMillis;

  public ConsoleHistory(int sampleMillis, int maxSeries) {
    if (sampleMillis < 1 || maxSeries < 0) {
      throw new IllegalArgumentException("sampleMillis " + sampleMillis + ", maxSeries " + maxSeries);
    }
    this.sampleMillis = sampleMillis;
    this.maxSeries = maxSeries;
  }

  /** Merges one tick's samples, read at {@code nowMillis}: every queue and topic sampled, and only those. */
  public void record(long nowMillis, List<QueueSample> queueSamples, List<TopicSample> topicSamples) {
    if (originMillis < 0) {
      originMillis = nowMillis;
      tick = 0;
    } else {
      // A tick the sampler skipped leaves its slot empty; a late one never shares a slot.
      tick = Math.max(tick + 1, Math.round((nowMillis - originMillis) / (double) sampleMillis));
    }
    minute = Math.floorDiv(nowMillis, COARSE_MILLIS);
    timeMillis = nowMillis;
    for (QueueSample s : queueSamples) {
      QueueRow row = queues.get(s.queue());
      if (row != null && row.generation != s.generation()) {
        dropSeries(row.key);
        row = null;
      }
      if (row == null) {
        row = new QueueRow(s, nowMillis);
        queues.put(row.key, row);
        redriveChanged = true;
      } else {
        redriveChanged |= !Objects.equals(row.deadLetterTargetArn, s.deadLetterTargetArn());
        row.update(s, nowMillis);
      }
      row.seenTick = tick;
      boolean active = row.active();
      if (row.series == null && (active || !pins.isEmpty() && pins.containsKey(row.key))) {
        row.series = newSeries(row.key, QueueRow.COLUMNS, QueueRow.GAUGES, nowMillis);
      }
      if (row.series != null) {
        row.series.record(tick, minute, row.values());
        touchIfActive(row.series, active, nowMillis);
      }
    }
    for (TopicSample s : topicSamples) {
      TopicRow row = topics.get(s.topic());
      if (row == null) {
        row = new TopicRow(s, nowMillis);
        topics.put(row.key, row);
      } else {
        row.update(s, nowMillis);
      }
      row.seenTick = tick;
      boolean active = row.active();
      if (row.series == null && active) {
        row.series = newSeries(row.key, TopicRow.COLUMNS, 0, nowMillis);
      }
      if (row.series != null) {
        row.series.record(tick, minute, row.values());
        touchIfActive(row.series, active, nowMillis);
      }
    }
    // Each sample is a distinct queue: when the rows number the samples, every row was seen.
    if (queues.size() != queueSamples.size() || topics.size() != topicSamples.size()) {
      dropAbsent();
    }
    dropIdle(nowMillis);
    if (redriveChanged) {
      deadLetterSources = invertRedrivePolicies();
      redriveChanged = false;
    }
  }

  private void touchIfActive(Series s, boolean active, long nowMillis) {
    if (active) {
      s.lastActiveMillis = nowMillis;
      series.get(s.key);
    }
  }

  /** A queue absent from the tick was deleted: its row and series go. */
  private void dropAbsent() {
    for (Iterator<QueueRow> it = queues.values().iterator(); it.hasNext(); ) {
      QueueRow row = it.next();
      if (row.seenTick != tick) {
        series.remove(row.key);
        it.remove();
        redriveChanged = true;
      }
    }
    for (Iterator<TopicRow> it = topics.values().iterator(); it.hasNext(); ) {
      TopicRow row = it.next();
      if (row.seenTick != tick) {
        series.remove(row.key);
        it.remove();
      }
    }
  }

  /** Series are in order of last activity, so the sweep stops at the first one active within the hour. */
  private void dropIdle(long nowMillis) {
    for (Iterator<Series> it = series.values().iterator(); it.hasNext(); ) {
      Series s = it.next();
      if (nowMillis - s.lastActiveMillis < IDLE_DROP_MILLIS) {
        return;
      }
      if (!pins.containsKey(s.key)) {
        it.remove();
        detach(s.key);
      }
    }
  }

  /** A new series for {@code key}, or null at the bound when no series may be taken (see the class comment). */
  private Series newSeries(Object key, int columns, int gauges, long nowMillis) {
    if (maxSeries == 0) {
      return null;
    }
    if (series.size() >= maxSeries) {
      boolean pinned = key instanceof QueueKey q && pins.containsKey(q);
      Series idlest = null;
      for (Series s : series.values()) {
        if (!pins.containsKey(s.key)) {
          idlest = s;
          break;
        }
      }
      if (idlest == null || !pinned && nowMillis - idlest.lastActiveMillis < (long) FINE_SLOTS * sampleMillis) {
        return null;
      }
      series.remove(idlest.key);
      detach(idlest.key);
    }
    Series s = new Series(key, columns, gauges, tick, minute, nowMillis);
    series.put(key, s);
    return s;
  }

  private void dropSeries(Object key) {
    series.remove(key);
    detach(key);
  }

  private void detach(Object key) {
    if (key instanceof QueueKey q && queues.get(q) != null) {
      queues.get(q).series = null;
    } else if (key instanceof TopicKey t && topics.get(t) != null) {
      topics.get(t).series = null;
    }
  }

  private Map<String, List<String>> invertRedrivePolicies() {
    Map<String, List<String>> sources = new HashMap<>();
    for (QueueRow row : queues.values()) {
      if (row.deadLetterTargetArn != null) {
        sources.computeIfAbsent(row.deadLetterTargetArn, k -> new ArrayList<>()).add(row.arn);
      }
    }
    sources.values().forEach(Collections::sort);
    return sources;
  }

  /**
   * What {@code compute} makes of this tick's rows, made once for streams asking with equal keys (the
   * same overview query), and forgotten at {@link #endTickEvents}.
   */
  @SuppressWarnings("unchecked")
  <T> T sharedThisTick(Object key, Supplier<T> compute) {
    return (T) shared.computeIfAbsent(key, k -> compute.get());
  }

  /** The tick's events are built: what they shared goes. */
  void endTickEvents() {
    shared.clear();
  }

  /** A stream shows this queue: its series is kept while pinned, and made now if it has none. */
  public void pin(QueueKey key) {
    pins.merge(key, 1, Integer::sum);
    QueueRow row = queues.get(key);
    if (row != null && row.series == null && tick >= 0) {
      row.series = newSeries(key, QueueRow.COLUMNS, QueueRow.GAUGES, timeMillis);
      if (row.series != null) {
        row.series.record(tick, minute, row.values());
      }
    }
  }

  public void unpin(QueueKey key) {
    pins.computeIfPresent(key, (k, n) -> n > 1 ? n - 1 : null);
  }

  /**
   * What the history holds, counted from its arrays' lengths and its rows: each row
   * {@link QueueRow#BYTES}, each series {@link Series#retainedBytes}.
   */
  public long retainedBytes() {
    long bytes = (long) (queues.size() + topics.size()) * QueueRow.BYTES;
    for (Series s : series.values()) {
      bytes += s.retainedBytes();
    }
    return bytes;
  }

  /** Queues and topics with a kept series. */
  public int seriesCount() {
    return series.size();
  }

  public int sampleMillis() {
    return sampleMillis;
  }

  /** When the last tick was read; 0 before the first. */
  public long timeMillis() {
    return timeMillis;
  }

  /** The last tick's number, counted from the first (0); -1 before it. */
  long tick() {
    return tick;
  }

  /** When tick {@code t} was due. */
  long tickMillis(long t) {
    return originMillis + t * sampleMillis;
  }

  /** The first tick the fine ring still covers. */
  long firstFineTick() {
    return Math.max(0, tick - FINE_SLOTS + 1);
  }

  long minute() {
    return minute;
  }

  /** The first minute the coarse ring covers, and not before the history began. */
  long firstCoarseMinute() {
    return Math.max(Math.floorDiv(originMillis, COARSE_MILLIS), minute - COARSE_SLOTS + 1);
  }

  QueueRow queue(QueueKey key) {
    return queues.get(key);
  }

  Collection<QueueRow> queues() {
    return queues.values();
  }

  Collection<TopicRow> topics() {
    return topics.values();
  }

  Collection<Series> allSeries() {
    return series.values();
  }

  /** The ARNs of the sampled queues whose redrive policy names {@code arn}, sorted. */
  List<String> deadLetterSources(String arn) {
    return deadLetterSources.getOrDefault(arn, List.of());
  }

  boolean isDeadLetterQueue(String arn) {
    return deadLetterSources.containsKey(arn);
  }

  /** The change of a total since the last sample; a total gone down was reset (a restart, a shard move): 0. */
  static int delta(long now, long before) {
    return now < before ? 0 : (int) Math.min(Integer.MAX_VALUE, now - before);
  }

  static double perSecond(int delta, long intervalMillis) {
    return intervalMillis <= 0 ? 0.0 : delta * 1000.0 / intervalMillis;
  }
}
