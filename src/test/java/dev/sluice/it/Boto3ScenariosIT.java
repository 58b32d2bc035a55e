package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * boto3, a second real client, through the FIFO, dead-letter and move-task scenarios of
 * {@code src/test/python/sqs_scenarios} (each restates an AWS-validated test). Runs where python3
 * with boto3 is installed, as on the machines this project is built on.
 */
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
    String python = pythonWithBoto3();
    assumeTrue(python != null, "no python3 with boto3 is installed: the boto3 scenarios are skipped");
    Path output = Files.createTempFile("boto3-scenarios", ".log");
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

  /** The first python3 that imports boto3: on the PATH, or pyenv's (where the AWS CLI lives here). */
  static String pythonWithBoto3() throws InterruptedException {
    for (String python : List.of("python3", System.getProperty("user.home") + "/.pyenv/shims/python3")) {
      try {
        if (new ProcessBuilder(python, "-c", "import boto3").start().waitFor() == 0) {
          return python;
        }
      } catch (IOException notThere) {
        // try the next one
      }
    }
    return null;
  }
}
