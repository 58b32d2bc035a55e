package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.Tool;
import dev.sluice.testtools.Tools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The README's "Topics and fan-out" section, the way a user follows it against the packaged jar:
 * its AWS CLI block run as written (only the port changed), then the boto3 script of the topics
 * page with the same variables exported. Each queue gets what its filter policy accepts.
 */
@NeedsTools({Tool.AWS_CLI, Tool.PYTHON_BOTO3})
class ReadmeTopicsIT {
  @Test
  void theReadmeTopicExamplesWorkAsWritten() throws Exception {
    String readme = Files.readString(QuickstartIT.README);
    String cliBlock = QuickstartIT.fencedBlockAfter(readme, "<!-- topics-cli");
    String script = QuickstartIT.fencedBlockAfter(Files.readString(java.nio.file.Path.of("src/site/markdown/topics.md")),
        "<!-- topics-boto3");
    Tools.aws();
    try (PackagedServer server = PackagedServer.start("readme-topics-", Map.of())) {
      int port = server.endpoint.getPort();
      String out = QuickstartIT.runShellBlock(cliBlock, port);
      String received = out.substring(out.lastIndexOf("\"Messages\""));
      assertTrue(received.contains("\"Body\": \"order 2\""), out);
      assertFalse(received.contains("order 1"), "the filter keeps order 1 out of big-orders: " + out);
      String printed = runPython(script.replace("9324", Integer.toString(port)));
      assertEquals("['{\"region\": \"eu-west-1\", \"amount\": 30}']", printed.strip());
    }
  }

  private static String runPython(String script) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(Tools.pythonWithBoto3(), "-").redirectErrorStream(true);
    pb.environment().putAll(Map.of("AWS_ACCESS_KEY_ID", "test", "AWS_SECRET_ACCESS_KEY", "test",
        "AWS_DEFAULT_REGION", "us-east-1", "AWS_CONFIG_FILE", "/dev/null", "AWS_SHARED_CREDENTIALS_FILE", "/dev/null"));
    Process p = pb.start();
    try (var stdin = p.getOutputStream()) {
      stdin.write(script.getBytes(StandardCharsets.UTF_8));
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), out);
    return out;
  }
}
