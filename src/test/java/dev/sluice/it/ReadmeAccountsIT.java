package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.ServerJar;
import dev.sluice.testtools.Tool;
import dev.sluice.testtools.Tools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "Accounts, regions and permissions" section, the way a user follows it: its
 * configuration file given to the packaged jar, then its AWS CLI block run as written (only the
 * port changed): team B is refused until team A grants it SendMessage, then its message arrives.
 */
@NeedsTools(Tool.AWS_CLI)
class ReadmeAccountsIT {
  @TempDir
  Path dir;

  @Test
  void theReadmeTwoTeamsExampleWorksAsWritten() throws Exception {
    String readme = Files.readString(QuickstartIT.README);
    Path config = dir.resolve("teams.yaml");
    Files.writeString(config, QuickstartIT.fencedBlockAfter(readme, "<!-- accounts-config"));
    assertTrue(readme.contains("java -jar target/sluice.jar --config teams.yaml"), "the README starts it so");
    String cliBlock = QuickstartIT.fencedBlockAfter(readme, "<!-- accounts-cli");
    Tools.aws();
    int port = QuickstartIT.freePort();
    Process p = ServerJar.logging(ServerJar.newLog("readme-accounts-"), Map.of("SLUICE_HTTP_PORT",
        Integer.toString(port)), "--config", config.toString()).start();
    try {
      QuickstartIT.awaitPort(port, p);
      String out = QuickstartIT.runShellBlock(cliBlock, port);
      assertTrue(out.contains("An error occurred (AccessDenied) when calling the SendMessage operation: User: "
          + "arn:aws:iam::222222222222:root is not authorized to perform: sqs:sendmessage"), out);
      assertTrue(out.contains("refused, as expected"), out);
      assertTrue(out.contains("\"Body\": \"hello\""), out);
    } finally {
      p.destroy();
      if (!p.waitFor(15, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }
}
