package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.Tool;
import dev.sluice.testtools.Tools;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The example page, {@code /examples/subscribe.html}, in headless Chromium or Chrome (the one
 * {@link Tools#chromium} finds, driven by Playwright's {@code playwright-core} from npm): it
 * subscribes through the SockJS bridge and shows a message the AWS SDK sends, which it then
 * acknowledges.
 */
@NeedsTools({Tool.CHROMIUM, Tool.NODE, Tool.NPM})
class ExamplePageIT extends SharedServerIT {
  static final Path SOURCE = Path.of("src/test/node/example-page");

  @Test
  void theExamplePageShowsAMessageSentByTheAwsSdk() throws Exception {
    String chromium = Tools.chromium();
    Path dir = Path.of("target/node-example-page");
    Files.createDirectories(dir);
    for (String f : new String[] {"package.json", "package-lock.json", "show-message.js"}) {
      Files.copy(SOURCE.resolve(f), dir.resolve(f), StandardCopyOption.REPLACE_EXISTING);
    }
    Process install = new ProcessBuilder(Tools.npm(), "ci", "--no-audit", "--no-fund").directory(dir.toFile())
        .redirectErrorStream(true).redirectOutput(dir.resolve("npm.log").toFile()).start();
    assertTrue(install.waitFor(180, TimeUnit.SECONDS) && install.exitValue() == 0,
        "npm ci failed: " + Files.readString(dir.resolve("npm.log")));

    String url = queue("push-page", Map.of());
    Process node = new ProcessBuilder(Tools.node(), "show-message.js", chromium,
        server.endpoint + "/examples/subscribe.html?queue=push-page").directory(dir.toFile())
        .redirectErrorStream(true).start();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8))) {
      String first = out.readLine();
      assertEquals("subscribed", first);
      String id = sqs.sendMessage(b -> b.queueUrl(url).messageBody("shown in the browser")).messageId();
      String line = out.readLine();
      JsonObject shown = new JsonObject(line);
      assertEquals(id, shown.getJsonArray("row").getString(0));
      assertEquals("shown in the browser", shown.getJsonArray("row").getString(1));
      assertTrue(node.waitFor(30, TimeUnit.SECONDS));
      assertEquals(0, node.exitValue());
    } finally {
      node.destroyForcibly();
    }
    long end = System.currentTimeMillis() + 5000;
    while (!"0".equals(sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings(
        "ApproximateNumberOfMessagesNotVisible")).attributesAsStrings().get("ApproximateNumberOfMessagesNotVisible"))) {
      assertTrue(System.currentTimeMillis() < end, "the page acknowledged the message");
      Thread.sleep(50);
    }
  }
}
