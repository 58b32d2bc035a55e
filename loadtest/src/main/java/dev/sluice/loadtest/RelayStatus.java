package dev.sluice.loadtest;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;

/**
 * What the server says of its (first) outbox relay (GET /console/api/outbox/sources, outbox.md
 * "Admin API"): rows relayed, dead and retried, and its wake-ups by NOTIFY and by poll. Read at
 * the edges of a measured window, the wake-ups say how often the relay woke, by which cause: each
 * wake-up is a round, a transaction on the application's database, when rows trickle in. Read from
 * the probe's main thread, so a plain JDK client; a server with a management token needs
 * {@code --token}.
 */
record RelayStatus(String name, String state, long relayed, long dead, long retried, long notifyWakeups,
    long pollWakeups, String lastError) {

  /** The first source's status, or null (with the reason on stderr) when it cannot be read; never fails a run. */
  static RelayStatus read(URI server, String token) {
    try {
      HttpRequest.Builder request = HttpRequest.newBuilder(server.resolve("/console/api/outbox/sources"))
          .header("X-Sluice-Console", "1").timeout(Duration.ofSeconds(10));
      if (!token.isEmpty()) {
        request.header("Authorization", "Bearer " + token);
      }
      HttpResponse<String> answer = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
          .send(request.build(), HttpResponse.BodyHandlers.ofString());
      if (answer.statusCode() != 200) {
        System.err.println("relay status: HTTP " + answer.statusCode());
        return null;
      }
      JsonArray sources = new JsonObject(answer.body()).getJsonArray("sources", new JsonArray());
      if (sources.isEmpty()) {
        System.err.println("relay status: no outbox source configured");
        return null;
      }
      JsonObject s = sources.getJsonObject(0);
      JsonObject wakeups = s.getJsonObject("wakeups", new JsonObject());
      return new RelayStatus(s.getString("name"), s.getString("state"), s.getLong("relayed", 0L),
          s.getLong("dead", 0L), s.getLong("retried", 0L), wakeups.getLong("notify", 0L), wakeups.getLong("poll", 0L),
          s.getString("lastError"));
    } catch (Exception e) {
      System.err.println("relay status: not read (" + e.getMessage() + ")");
      return null;
    }
  }

  /** The wake-ups a second between {@code before} and this, as "notify N/s, poll M/s"; "n/a" without both. */
  String wakeupsPerSecondSince(RelayStatus before, double seconds) {
    return before == null ? "n/a" : String.format(Locale.ROOT, "notify %.0f/s, poll %.0f/s",
        (notifyWakeups - before.notifyWakeups) / seconds, (pollWakeups - before.pollWakeups) / seconds);
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "relay %s: %s, relayed %d, dead %d, retried %d, wake-ups notify %d poll %d%s",
        name, state, relayed, dead, retried, notifyWakeups, pollWakeups, lastError == null ? "" : ", last error "
            + lastError);
  }
}
