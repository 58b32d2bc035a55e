package dev.sluice.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** conf/sluice.yaml, the ConfigKey table and the configuration page's table say the same. */
class ConfigDocumentationTest {
  static final Pattern ROW = Pattern.compile("^\\| `([a-zA-Z.]+)` \\| `(SLUICE_[A-Z_]+)` \\| `([^`]*)` \\|", Pattern.MULTILINE);

  @Test
  void theConfigurationPageListsEveryKeyWithItsVariableAndDefault() throws Exception {
    String readme = Files.readString(Path.of("src/site/markdown/configuration.md"));
    Map<String, String[]> rows = new LinkedHashMap<>();
    Matcher m = ROW.matcher(readme);
    while (m.find()) {
      rows.put(m.group(1), new String[] {m.group(2), m.group(3)});
    }
    Map<String, String> defaults = bundledDefaults();
    assertEquals(ConfigKey.values().length, rows.size(), "one row per key");
    for (ConfigKey k : ConfigKey.values()) {
      String[] row = rows.get(k.path());
      assertTrue(row != null, "configuration.md documents " + k.path());
      assertEquals(k.envVar(), row[0], k.path());
      String expected = defaults.get(k.path()).isEmpty() ? "\"\"" : defaults.get(k.path());
      assertEquals(expected, row[1], "documented default of " + k.path());
    }
  }

  @Test
  void confFileDocumentsEveryKeyAndItsVariable() throws Exception {
    String conf = Files.readString(Path.of("conf/sluice.yaml"));
    assertEquals(ConfigKey.values().length, bundledDefaults().size());
    for (ConfigKey k : ConfigKey.values()) {
      assertTrue(conf.contains("# " + k.envVar() + ":"), "conf/sluice.yaml names " + k.envVar());
    }
  }

  private static Map<String, String> bundledDefaults() {
    return ConfigLoader.bundledValues();
  }
}
