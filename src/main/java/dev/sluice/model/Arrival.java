package dev.sluice.model;

/**
 * How a message entered its queue, which durable mode keeps with its row: a sent message counts its
 * retention and a FIFO queue's delay from its own sent time; a dead letter keeps the sent time it
 * had in its source queue (AWS: Amazon SQS dead-letter queues), so its retention does not follow
 * its place in delivery order; a message a move task redrove is new, sent now, and visible at once.
 */
public enum Arrival {
  SENT,
  KEPT_SENT_TIME,
  REDRIVEN;

  /** The value the {@code arrival} column stores. */
  public short code() {
    return (short) ordinal();
  }

  public static Arrival ofCode(int code) {
    return values()[code];
  }
}
