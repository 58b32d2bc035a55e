package dev.sluice.it;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.Tool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * boto3, a second real client, through the FIFO, dead-letter and move-task scenarios of
 * {@code src/test/python/sqs_scenarios} (each restates an AWS-validated test), with the python3
 * from the PATH, which must import boto3.
 */
@NeedsTools(Tool.PYTHON_BOTO3)
class Boto3ScenariosIT {
  static TestServer server;

  @BeforeAll
  static void start() {
    server = TestServer.start();
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @Test
  void fifoAndDeadLetterScenariosPassThroughBoto3() throws Exception {
    Boto3Script.run("src/test/python/sqs_scenarios/run.py", server.endpoint.getPort());
  }
}
