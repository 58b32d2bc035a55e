package dev.sluice.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The operations page's metrics table lists every metric of MetricNames, in its Prometheus form, and no other. */
class MetricsDocumentationTest {
  static final Pattern ROW = Pattern.compile("^\\| `(sluice_[a-z_]+)` \\|", Pattern.MULTILINE);
  /** The suffixes Prometheus adds for a base unit or a counter. */
  static final List<String> SUFFIXES = List.of("", "_seconds", "_bytes", "_total");

  @Test
  void theMetricsTableMatchesMetricNames() throws Exception {
    List<String> documented = new ArrayList<>();
    Matcher m = ROW.matcher(Files.readString(Path.of("src/site/markdown/operations.md")));
    while (m.find()) {
      documented.add(m.group(1));
    }
    List<String> defined = new ArrayList<>();
    for (Field f : MetricNames.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.get(null) instanceof String name && name.startsWith("sluice.")) {
        defined.add(name.replace('.', '_'));
      }
    }
    assertEquals(defined.size(), documented.size(), "one row per metric: " + documented + " vs " + defined);
    for (String base : defined) {
      assertTrue(SUFFIXES.stream().anyMatch(suffix -> documented.contains(base + suffix)),
          "operations.md documents " + base + " (with its unit suffix, if any)");
    }
  }
}
