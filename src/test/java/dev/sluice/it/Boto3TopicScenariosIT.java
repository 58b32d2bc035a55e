package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.ServerJar;
import dev.sluice.testtools.Tool;
import dev.sluice.testtools.Tools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * boto3 against the packaged jar's SNS API, through the scenarios of
 * {@code src/test/python/sns_scenarios}: fan-out to three queues with filter policies, raw and
 * enveloped, FIFO topics to FIFO queues in order with deduplication, PublishBatch with a partial
 * failure (the server's memory budget is small for it), and SNS's error codes with AWS's texts.
 */
@NeedsTools(Tool.PYTHON_BOTO3)
class Boto3TopicScenariosIT {

  @Test
  void snsScenariosPassThroughBoto3() throws Exception {
    try (PackagedServer server = PackagedServer.start("boto3-topics-", Map.of("SLUICE_MANAGEMENT_TOKEN", "off",
        "SLUICE_ENGINE_MEMORY_BUDGET_BYTES", "3000000"))) {
      Path output = ServerJar.newLog("boto3-topic-scenarios-");
      ProcessBuilder pb = new ProcessBuilder(Tools.pythonWithBoto3(), "src/test/python/sns_scenarios/run.py")
          .redirectErrorStream(true).redirectOutput(output.toFile());
      pb.environment().put("SLUICE_PORT", Integer.toString(server.endpoint.getPort()));
      pb.environment().put("PYTHONDONTWRITEBYTECODE", "1"); // no __pycache__ in the source tree
      Process p = pb.start();
      boolean finished = p.waitFor(180, TimeUnit.SECONDS);
      if (!finished) {
        p.destroyForcibly();
      }
      String report = Files.readString(output);
      Files.delete(output);
      System.out.println(report);
      assertEquals(0, finished ? p.exitValue() : -1, "boto3 SNS scenarios failed:\n" + report);
    }
  }
}
