package dev.sluice.outbox;

/**
 * Where a row goes: a queue or an SNS topic of the source's account and region, by name (a topic
 * may share its name with a queue, so the kind is part of what a destination is). A value.
 */
record Destination(Kind kind, String name) {
  enum Kind { QUEUE, TOPIC }

  static Destination queue(String name) {
    return new Destination(Kind.QUEUE, name);
  }

  static Destination topic(String name) {
    return new Destination(Kind.TOPIC, name);
  }

  /** Whether its messages keep an order: a FIFO queue's or a FIFO topic's (by their names' ending). */
  boolean ordered() {
    return name.endsWith(".fifo");
  }

  /** As the admin view's last failure names it: a queue by its name, a topic as {@code topic <name>}. */
  @Override
  public String toString() {
    return kind == Kind.QUEUE ? name : "topic " + name;
  }
}
