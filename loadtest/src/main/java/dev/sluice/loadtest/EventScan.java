package dev.sluice.loadtest;

import java.util.function.Consumer;

/**
 * Reads what the trigger benchmark needs from a Lambda SQS event without parsing it as JSON: each
 * record's messageId, the number its body starts with (the intended send time the latency phase
 * puts there) and its SentTimestamp. A plain scan for the keys costs a fraction of a JSON parse, and
 * the no-op target shares the cores with the server it measures. Safe on any body: a quote inside a
 * body is escaped in the event, so a key's quoted form never matches inside one. Stateless.
 */
final class EventScan {
  private static final String ID = "\"messageId\":\"";
  private static final String BODY = "\"body\":\"";
  private static final String SENT = "\"SentTimestamp\":\"";

  /** One record as seen: {@code leadingNumber} and {@code sentTimestamp} are -1 when absent. */
  record Record(String messageId, long leadingNumber, long sentTimestamp) {}

  private EventScan() {}

  /** Calls {@code each} with every record of {@code event}, in order; answers how many there were. */
  static int records(String event, Consumer<Record> each) {
    int count = 0;
    int at = event.indexOf(ID);
    while (at >= 0) {
      int idFrom = at + ID.length();
      int idTo = event.indexOf('"', idFrom);
      int next = event.indexOf(ID, idTo);
      int end = next < 0 ? event.length() : next;
      each.accept(new Record(event.substring(idFrom, idTo), numberAfter(event, BODY, idTo, end),
          numberAfter(event, SENT, idTo, end)));
      count++;
      at = next;
    }
    return count;
  }

  /** The decimal digits right after {@code key} between {@code from} and {@code to}, or -1. */
  private static long numberAfter(String event, String key, int from, int to) {
    int at = event.indexOf(key, from);
    if (at < 0 || at >= to) {
      return -1;
    }
    long value = 0;
    int digits = 0;
    for (int i = at + key.length(); i < to && digits < 18; i++, digits++) {
      char c = event.charAt(i);
      if (c < '0' || c > '9') {
        break;
      }
      value = value * 10 + (c - '0');
    }
    return digits == 0 ? -1 : value;
  }
}
