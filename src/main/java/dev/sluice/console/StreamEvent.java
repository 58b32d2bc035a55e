package dev.sluice.console;

import io.vertx.core.json.JsonObject;

/** One server-sent event; {@code last} ends the stream once written (a queue gone). */
public record StreamEvent(String name, JsonObject data, boolean last) {
  /** The event's text: its name and its data on one line (encoded JSON holds no line break). */
  public String frame() {
    return "event: " + name + "\ndata: " + data.encode() + "\n\n";
  }
}
