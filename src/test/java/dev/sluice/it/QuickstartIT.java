package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.MarkdownBlocks;
import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.ServerJar;
import dev.sluice.testtools.Tool;
import dev.sluice.testtools.Tools;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The README quickstart, the way a user runs it: the packaged jar as its own process, then the
 * README's AWS CLI block executed as written (only the port changed, so the test never needs 9324).
 */
@NeedsTools(Tool.AWS_CLI)
class QuickstartIT {
  static final Path README = Path.of("README.md");

  @Test
  void theReadmeQuickstartWorksAsWritten() throws Exception {
    String readme = Files.readString(README);
    assertTrue(readme.contains("mvn -q -DskipTests package && java -jar target/sluice.jar"),
        "the README's run command starts the jar this test starts");
    String cliBlock = fencedBlockAfter(readme, "<!-- quickstart-cli");
    Tools.aws(); // the block calls it by name, from the PATH this run inherits
    int port = freePort();
    Path serverLog = ServerJar.newLog("quickstart-");
    Process p = ServerJar.logging(serverLog, Map.of("SLUICE_HTTP_PORT", Integer.toString(port))).start();
    try {
      awaitPort(port, p);
      String out = runShellBlock(cliBlock, port);
      assertTrue(out.contains("\"QueueUrl\": \"http://127.0.0.1:" + port + "/000000000000/orders\""), out);
      assertTrue(out.contains("\"Body\": \"Hello from Sluice\""), out);
      // The console is where the README and the start-up log say it is.
      assertTrue(readme.contains("<http://127.0.0.1:9324/console/>"), "the README names the console's address");
      assertTrue(Files.readString(serverLog).contains("Console: http://127.0.0.1:" + port + "/console/"),
          "the start-up log names the console's address");
      HttpResponse<String> page = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + port + "/console/")).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, page.statusCode());
      assertTrue(page.body().contains("<title>"), page.body());
    } finally {
      p.destroy();
      if (!p.waitFor(15, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
    assertEquals(List.of(), unexpectedLogLines(serverLog));
  }

  /**
   * The lines of a packaged server's log that a clean run does not print: every warning or error.
   * Let through, for now: Vert.x's HTTP metrics now and then meet a request on a connection
   * they never saw open and fail on it with a NullPointerException that Netty logs as a warning
   * (seen once in many runs, while the readiness probe polled a server that was starting).
   */
  static List<String> unexpectedLogLines(Path log) throws IOException {
    return Files.readAllLines(log).stream()
        .filter(l -> l.contains(" WARNING ") || l.contains("SEVERE") || l.contains("ERROR") || l.contains("blocked"))
        .filter(l -> !l.contains("NullPointerException: Cannot read field \"tags\" because \"socketMetric\" is null"))
        .toList();
  }

  static String fencedBlockAfter(String text, String marker) {
    int at = text.indexOf(marker);
    assertTrue(at >= 0, "README has the marker " + marker);
    return MarkdownBlocks.after(text, marker);
  }

  /** Runs a README shell block as written, but for the port, and returns what it printed. */
  static String runShellBlock(String block, int port) throws Exception {
    // bash reads the block from stdin: no script file is left behind in /tmp
    Process run = new ProcessBuilder("bash", "-s").redirectErrorStream(true).start();
    try (var stdin = run.getOutputStream()) {
      stdin.write(("set -euo pipefail\n" + block.replace("9324", Integer.toString(port)))
          .getBytes(StandardCharsets.UTF_8));
    }
    String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(run.waitFor(60, TimeUnit.SECONDS), "the block finished");
    assertEquals(0, run.exitValue(), out);
    return out;
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** Waits until the server answers its readiness probe: the port opens before recovery ends. */
  static void awaitPort(int port, Process p) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    URI ready = URI.create("http://127.0.0.1:" + port + "/health/ready");
    while (System.nanoTime() < deadline) {
      assertTrue(p.isAlive(), "the server process exited early");
      try {
        if (READY_PROBE.send(HttpRequest.newBuilder(ready).GET().build(), HttpResponse.BodyHandlers.discarding())
            .statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // the port is not open yet
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the server did not become ready on port " + port);
  }

  private static final HttpClient READY_PROBE = HttpClient.newHttpClient();

}
