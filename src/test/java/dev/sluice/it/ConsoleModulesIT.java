package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.Tool;
import dev.sluice.testtools.Tools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The console's pure modules under Node's own test runner: {@code format.js} and {@code stream.js}
 * (and {@code api.js}'s error parsing), imported from the webroot as the browser loads them, so
 * the tests read the shipped files and need no npm install or browser
 * ({@code src/test/node/console/*.test.js}).
 */
@NeedsTools(Tool.NODE)
class ConsoleModulesIT {
  static final Path TESTS = Path.of("src/test/node/console");
  static final Pattern COUNT = Pattern.compile("^# (pass|fail) (\\d+)$", Pattern.MULTILINE);

  @Test
  void thePagesModulesPassTheirNodeTests() throws Exception {
    // The webroot has no package.json saying "type": "module"; Node 20 detects the ES module syntax
    // with this flag (on by default from 20.19).
    List<String> command = new ArrayList<>(List.of(Tools.node(), "--experimental-detect-module", "--test"));
    try (Stream<Path> files = Files.list(TESTS)) {
      files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".test.js")).sorted().forEach(command::add);
    }
    assertTrue(command.size() - 3 >= 5, "every module's tests: " + command);
    Process node = new ProcessBuilder(command).directory(TESTS.toFile()).redirectErrorStream(true).start();
    String out = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(node.waitFor(60, TimeUnit.SECONDS), out);
    assertEquals(0, node.exitValue(), out);
    Matcher m = COUNT.matcher(out);
    int pass = -1;
    int fail = -1;
    while (m.find()) {
      if (m.group(1).equals("pass")) {
        pass = Integer.parseInt(m.group(2));
      } else {
        fail = Integer.parseInt(m.group(2));
      }
    }
    assertEquals(0, fail, out);
    assertTrue(pass >= 26, "every test ran: " + out);
  }
}
