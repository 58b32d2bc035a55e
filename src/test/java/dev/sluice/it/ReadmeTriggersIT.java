package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.ServerJar;
import dev.sluice.testtools.Tool;
import dev.sluice.testtools.Tools;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The README's "Triggers" section, the way a user follows it: its Python handler run as written
 * and its configuration file given to the packaged jar (only the ports changed, both blocks alike);
 * then {@code hello} and {@code fail} sent to {@code orders}: the handler prints each once, and the
 * failed one again after its visibility timeout.
 */
@NeedsTools(Tool.PYTHON_BOTO3)
class ReadmeTriggersIT {
  @TempDir
  Path dir;

  @Test
  void theReadmeTriggerExampleWorksAsWritten() throws Exception {
    String readme = Files.readString(QuickstartIT.README);
    assertTrue(readme.contains("java -jar target/sluice.jar --config triggers.yaml"), "the README starts it so");
    int handlerPort = QuickstartIT.freePort();
    Path handler = dir.resolve("handler.py");
    Files.writeString(handler, QuickstartIT.fencedBlockAfter(readme, "<!-- triggers-handler")
        .replace("9000", Integer.toString(handlerPort)));
    Path config = dir.resolve("triggers.yaml");
    Files.writeString(config, QuickstartIT.fencedBlockAfter(readme, "<!-- triggers-config")
        .replace("9000", Integer.toString(handlerPort)));
    Process python = new ProcessBuilder(Tools.pythonWithBoto3(), handler.toString()).redirectErrorStream(true).start();
    BlockingQueue<String> printed = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(python.getInputStream(),
          StandardCharsets.UTF_8))) {
        r.lines().forEach(printed::add);
      } catch (java.io.IOException ended) {
        // the handler was stopped
      }
    });
    reader.setDaemon(true);
    reader.start();
    int port = QuickstartIT.freePort();
    Process sluice = ServerJar.logging(ServerJar.newLog("readme-triggers-"), Map.of("SLUICE_HTTP_PORT",
        Integer.toString(port)), "--config", config.toString()).start();
    try (SqsClient sqs = TopicDurableIT.sqs(port)) {
      QuickstartIT.awaitPort(port, sluice);
      String url = "http://127.0.0.1:" + port + "/000000000000/orders";
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("hello"));
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("fail"));
      List<String> lines = new ArrayList<>();
      long until = System.currentTimeMillis() + 20_000;
      while (!lines.contains("2 fail") && System.currentTimeMillis() < until) {
        String line = printed.poll(500, TimeUnit.MILLISECONDS);
        if (line != null && !line.contains("HTTP/1")) { // the server's access log lines
          lines.add(line);
        }
      }
      assertEquals(List.of("1 fail", "1 hello", "2 fail"), lines.stream().sorted().toList(), String.join("\n", lines));
      assertEquals("2 fail", lines.get(lines.size() - 1), "the failure came back after its visibility timeout");
    } finally {
      sluice.destroy();
      python.destroy();
      if (!sluice.waitFor(15, TimeUnit.SECONDS)) {
        sluice.destroyForcibly();
      }
      python.waitFor(5, TimeUnit.SECONDS);
    }
  }
}
