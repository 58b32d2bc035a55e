package dev.sluice.console;

import io.vertx.core.json.JsonObject;

/**
 * One server-sent event; {@code last} ends the stream once written (a queue gone). Its text is
 * encoded when the event is made, on the history's worker where the views build their events, so
 * the event loops that write it to each stream only copy bytes (an overview is up to 500 rows).
 */
public final class StreamEvent {
  private final String frame;
  private final boolean last;

  public StreamEvent(String name, JsonObject data, boolean last) {
    // Encoded JSON holds no line break, so the data is one "data:" line.
    this.frame = "event: " + name + "\ndata: " + data.encode() + "\n\n";
    this.last = last;
  }

  /** The event's text: its name and its data on one line. */
  public String frame() {
    return frame;
  }

  public boolean last() {
    return last;
  }
}
