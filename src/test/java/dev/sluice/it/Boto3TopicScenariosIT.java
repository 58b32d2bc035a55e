package dev.sluice.it;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.Tool;
import java.util.Map;
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
      Boto3Script.run("src/test/python/sns_scenarios/run.py", server.endpoint.getPort());
    }
  }
}
