package dev.sluice.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConfigKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README and the pages beside it keep their promises: every relative link reaches a file (and
 * its #anchor a heading of that file), every configuration key and SLUICE_ variable they name
 * exists, and the README stays a front door.
 */
class DocumentationTest {
  static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  static final Pattern KEY = Pattern.compile("`((?:http|sqs|engine|pg|push|metrics|shutdown|tls|cluster|console)\\.[a-zA-Z]+)`");
  static final Pattern VARIABLE = Pattern.compile("\\bSLUICE_[A-Z0-9_]+\\b");
  /**
   * Variables that are not configuration keys: the config file's location, the tests' own, and
   * the k6 scripts' target.
   */
  static final Set<String> OTHER_VARIABLES =
      Set.of("SLUICE_CONFIG", "SLUICE_TEST_PG_BIN", "SLUICE_TEST_CHROMIUM", "SLUICE_URL");

  static List<Path> documents() throws IOException {
    List<Path> docs = new ArrayList<>(List.of(Path.of("README.md"), Path.of("k8s/README.md"),
        Path.of("loadtest/README.md")));
    try (Stream<Path> pages = Files.list(Path.of("src/site/markdown"))) {
      pages.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    return docs;
  }

  @Test
  void everyRelativeLinkReachesAFileAndItsAnchorAHeading() throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path doc : documents()) {
      Matcher m = LINK.matcher(Files.readString(doc));
      while (m.find()) {
        String target = m.group(1);
        if (target.startsWith("http://") || target.startsWith("https://") || target.startsWith("mailto:")) {
          continue;
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty() ? doc : doc.getParent() == null ? Path.of(file) : doc.getParent().resolve(file);
        if (!Files.exists(resolved)) {
          broken.add(doc + ": " + target + " (no such file)");
        } else if (hash >= 0 && !anchors(resolved).contains(target.substring(hash + 1))) {
          broken.add(doc + ": " + target + " (no such heading)");
        }
      }
    }
    assertEquals(List.of(), broken);
  }

  @Test
  void everyConfigurationKeyAndVariableNamedExists() throws IOException {
    List<String> unknown = new ArrayList<>();
    for (Path doc : documents()) {
      String text = Files.readString(doc);
      Matcher k = KEY.matcher(text);
      while (k.find()) {
        if (ConfigKey.byPath(k.group(1)).isEmpty()) {
          unknown.add(doc + ": " + k.group(1));
        }
      }
      Matcher v = VARIABLE.matcher(text);
      while (v.find()) {
        String name = v.group();
        if (!OTHER_VARIABLES.contains(name) && Stream.of(ConfigKey.values()).noneMatch(c -> c.envVar().equals(name))) {
          unknown.add(doc + ": " + name);
        }
      }
    }
    assertEquals(List.of(), unknown);
  }

  @Test
  void theReadmeIsAFrontDoor() throws IOException {
    long lines = Files.readAllLines(Path.of("README.md")).size();
    // One runnable block per capability, and no more: 300 lines since the outbox (issue 25) joined the SQS, topic,
    // trigger, push and account examples.
    assertTrue(lines <= 300, "README.md has " + lines + " lines; reference material belongs in src/site/markdown");
  }

  /** GitHub's anchors: headings lower-cased, punctuation dropped, spaces as hyphens. */
  static Set<String> anchors(Path doc) throws IOException {
    Set<String> out = new java.util.HashSet<>();
    for (String line : Files.readAllLines(doc)) {
      if (line.startsWith("#")) {
        String title = line.replaceFirst("^#+\\s*", "").toLowerCase(Locale.ROOT);
        out.add(title.replaceAll("[^a-z0-9 _-]", "").replace(' ', '-'));
      }
    }
    return out;
  }
}
