package dev.sluice.model;

/**
 * A message's place in its queue's delivery order, as durable rows are ordered: on a standard queue
 * when it first becomes visible ({@code major}) and its key ({@code minor}), which breaks ties in
 * send order because keys only grow within a queue, across runs too; on a FIFO queue its sequence
 * number (only FIFO messages have one above 0) and its key.
 */
public record DeliveryPosition(long major, long minor) implements Comparable<DeliveryPosition> {
  /** Before every position: the frontier of a queue that has admitted nothing yet. */
  public static final DeliveryPosition MIN = new DeliveryPosition(Long.MIN_VALUE, Long.MIN_VALUE);

  static DeliveryPosition of(Message m) {
    return new DeliveryPosition(m.sequenceNumber > 0 ? m.sequenceNumber : m.firstVisibleAtMillis(), m.key);
  }

  /** Of a row read back from the durable store. */
  static DeliveryPosition of(RestoredMessage r) {
    return new DeliveryPosition(r.sequenceNumber() > 0 ? r.sequenceNumber() : r.firstVisibleAtMillis(), r.key());
  }

  /**
   * The last position before this one, so that an inclusive bound {@code <= predecessor()} stops
   * just short of it (page reads must never reach a row whose write has not committed).
   */
  DeliveryPosition predecessor() {
    return minor == Long.MIN_VALUE ? new DeliveryPosition(major - 1, Long.MAX_VALUE)
        : new DeliveryPosition(major, minor - 1);
  }

  static DeliveryPosition max(DeliveryPosition a, DeliveryPosition b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  static DeliveryPosition min(DeliveryPosition a, DeliveryPosition b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  @Override
  public int compareTo(DeliveryPosition o) {
    int c = Long.compare(major, o.major);
    return c != 0 ? c : Long.compare(minor, o.minor);
  }
}
