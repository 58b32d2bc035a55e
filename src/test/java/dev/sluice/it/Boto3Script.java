package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.ServerJar;
import dev.sluice.testtools.Tool;
import dev.sluice.testtools.Tools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Runs a boto3 scenario script against the Sluice on 127.0.0.1:{@code port} and fails with its report. */
@NeedsTools(Tool.PYTHON_BOTO3)
final class Boto3Script {
  private Boto3Script() {}

  static void run(String script, int port) throws Exception {
    Path output = ServerJar.newLog("boto3-scenarios-");
    ProcessBuilder pb = new ProcessBuilder(Tools.pythonWithBoto3(), script)
        .redirectErrorStream(true)
        .redirectOutput(output.toFile());
    pb.environment().put("SLUICE_PORT", Integer.toString(port));
    pb.environment().put("PYTHONDONTWRITEBYTECODE", "1"); // no __pycache__ in the source tree
    Process p = pb.start();
    boolean finished = p.waitFor(180, TimeUnit.SECONDS);
    if (!finished) {
      p.destroyForcibly();
    }
    String report = Files.readString(output);
    Files.delete(output);
    System.out.println(report);
    assertEquals(0, finished ? p.exitValue() : -1, script + " failed:\n" + report);
  }
}
