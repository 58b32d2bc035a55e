package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.ServerJar;
import dev.sluice.testtools.Tool;
import dev.sluice.testtools.Tools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
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
    String python = Tools.pythonWithBoto3();
    Path output = ServerJar.newLog("boto3-scenarios-");
    ProcessBuilder pb = new ProcessBuilder(python, "src/test/python/sqs_scenarios/run.py")
        .redirectErrorStream(true)
        .redirectOutput(output.toFile());
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
    assertEquals(0, finished ? p.exitValue() : -1, "boto3 scenarios failed:\n" + report);
  }
}
