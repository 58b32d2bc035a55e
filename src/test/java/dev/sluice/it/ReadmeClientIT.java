package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java client examples as a user copies them: the README's block (WebSocket bridge, Mutiny
 * operators) and push delivery's (TCP bridge, callbacks), each wrapped in a class,
 * compiled against the client jar and its two dependencies only, and run as its own program against
 * the packaged server (only the port changed): each prints the message the SDK sent, which is then
 * gone from the queue.
 */
class ReadmeClientIT {
  @Test
  void theJavaClientExamplesWorkAsWritten(@TempDir Path work) throws Exception {
    String readmeBlock = QuickstartIT.fencedBlockAfter(Files.readString(QuickstartIT.README), "<!-- java-client");
    String pushBlock = QuickstartIT.fencedBlockAfter(Files.readString(Path.of("src/site/markdown/push.md")),
        "<!-- java-client-tcp");
    int tcpPort = QuickstartIT.freePort();
    try (PackagedServer server = PackagedServer.start("readme-client-",
        Map.of("SLUICE_PUSH_TCP_PORT", Integer.toString(tcpPort)))) {
      var sqs = server.sqs("test", "test");
      String url = sqs.createQueue(b -> b.queueName("orders")).queueUrl();
      String classPath = compile(work, Map.of(
          "ReadmeExample", readmeBlock.replace("9324", Integer.toString(server.endpoint.getPort())),
          "PushExample", pushBlock.replace("7000", Integer.toString(tcpPort))));
      for (String example : List.of("ReadmeExample", "PushExample")) {
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("hello from " + example));
        String printed = runUntil(classPath, example, "got hello from " + example, () -> held(sqs, url) == 0);
        assertTrue(printed.contains("got hello from " + example), example + " printed: " + printed);
        assertEquals(0, held(sqs, url), "the example acked what it printed");
      }
      sqs.close();
    }
  }

  /** Wraps each block in a class's main, compiles them, and answers the class path to run them with. */
  private static String compile(Path work, Map<String, String> blocks) throws Exception {
    String classPath = work + File.pathSeparator + dependencies();
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    for (Map.Entry<String, String> block : blocks.entrySet()) {
      Path source = work.resolve(block.getKey() + ".java");
      Files.writeString(source, """
          import dev.sluice.client.*;
          import java.net.URI;
          import java.time.Duration;

          public class %s {
            public static void main(String[] args) throws Exception {
          %s
            }
          }
          """.formatted(block.getKey(), block.getValue()));
      ByteArrayOutputStream errors = new ByteArrayOutputStream();
      int status = javac.run(null, errors, errors, "-cp", classPath, "-d", work.toString(), source.toString());
      assertEquals(0, status, block.getKey() + " does not compile:\n" + errors.toString(StandardCharsets.UTF_8));
    }
    return classPath;
  }

  /** The client jar and the jars its own pom brings (Vert.x core and its logging, Netty, Jackson core, Mutiny), no more. */
  private static String dependencies() {
    return java.util.Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> entry.equals(System.getProperty("sluice.clientJar")) || entry.contains("/io/vertx/vertx-core")
            || entry.contains("/io/netty/") || entry.contains("/io/smallrye/") || entry.contains("/org/jctools/")
            || entry.contains("/com/fasterxml/jackson/core/jackson-core/"))
        .reduce((a, b) -> a + File.pathSeparator + b).orElseThrow();
  }

  /** The queue's messages, visible or not: 0 once the one sent is deleted. */
  private static int held(software.amazon.awssdk.services.sqs.SqsClient sqs, String url) {
    return sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings("ApproximateNumberOfMessages",
        "ApproximateNumberOfMessagesNotVisible")).attributesAsStrings().values().stream()
        .mapToInt(Integer::parseInt).sum();
  }

  /**
   * Runs {@code main} until it prints {@code expected} and {@code settled} holds (it subscribes and
   * never ends by itself), then stops it.
   */
  private static String runUntil(String classPath, String main, String expected,
      java.util.function.BooleanSupplier settled) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", classPath, main).redirectErrorStream(true);
    Process p = pb.start();
    StringBuilder out = new StringBuilder();
    try (InputStream in = p.getInputStream()) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      byte[] buffer = new byte[4096];
      while (!out.toString().contains(expected) && System.nanoTime() < deadline) {
        int n = in.available() > 0 || !p.isAlive() ? in.read(buffer) : 0;
        if (n > 0) {
          out.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
        } else if (n < 0) {
          break; // it ended
        } else {
          Thread.sleep(50);
        }
      }
      while (out.toString().contains(expected) && !settled.getAsBoolean() && System.nanoTime() < deadline) {
        Thread.sleep(50); // its ack, sent right after the print
      }
    } finally {
      p.destroy();
      p.waitFor(10, TimeUnit.SECONDS);
    }
    return out.toString();
  }
}
