package dev.sluice.loadtest;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/** Command-line options: {@code --name value} pairs with defaults. */
final class Options {
  private final Map<String, String> values = new HashMap<>();

  Options(String[] args, int from) {
    for (int i = from; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("expected --option value, got " + args[i]);
      }
      values.put(args[i].substring(2), args[i + 1]);
    }
  }

  String string(String name, String def) {
    return values.getOrDefault(name, def);
  }

  int integer(String name, int def) {
    return Integer.parseInt(values.getOrDefault(name, Integer.toString(def)));
  }

  double decimal(String name, double def) {
    return Double.parseDouble(values.getOrDefault(name, Double.toString(def)));
  }

  URI url() {
    return URI.create(string("url", "http://127.0.0.1:9324"));
  }

  int users() {
    return integer("users", 64);
  }

  int workers() {
    return integer("workers", 2);
  }

  int durationSeconds() {
    return integer("duration", 20);
  }

  int warmupSeconds() {
    return integer("warmup", 5);
  }

  String queue() {
    return string("queue", "bench");
  }

  /** Message groups of a FIFO run; 0 (the default) means a standard queue. */
  int groups() {
    return integer("groups", 0);
  }

  int bodyBytes() {
    return integer("body-bytes", 100);
  }
}
