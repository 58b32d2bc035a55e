package dev.sluice.testtools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JVM flag sets operations.md recommends, read from the fenced block under its "JVM and
 * collector" heading: each {@code export JDK_JAVA_OPTIONS="…"} line, needing at least the JDK named
 * by the {@code # JDK n} comment above it. Read by the tests that run them and that compare the
 * container image's flags with them, so the page is the one place the flags are written.
 */
public final class JvmFlagSets {
  static final Path OPERATIONS = Path.of("src/site/markdown/operations.md");
  static final String HEADING = "## JVM and collector";
  private static final Pattern JDK_LINE = Pattern.compile("# JDK (\\d+)\\b.*");
  private static final Pattern FLAGS_LINE = Pattern.compile("export JDK_JAVA_OPTIONS=\"([^\"]*)\"");

  private JvmFlagSets() {
  }

  /** A documented flag set: the JDK feature release it needs at least, and the flags. */
  public record FlagSet(int minimumJdk, String flags) {
    /** The collector the flags select, as the JVM names its collectors (G1 when none is named). */
    public String collector() {
      if (flags.contains("+UseShenandoahGC")) {
        return "Shenandoah";
      }
      return flags.contains("+UseZGC") ? "ZGC" : "G1";
    }
  }

  /** The sets in the order the page gives them; fails if a set has no JDK line above it. */
  public static List<FlagSet> documented() throws IOException {
    String block = MarkdownBlocks.after(Files.readString(OPERATIONS), HEADING);
    List<FlagSet> sets = new ArrayList<>();
    int jdk = 0;
    for (String line : block.split("\n")) {
      Matcher release = JDK_LINE.matcher(line.strip());
      Matcher flags = FLAGS_LINE.matcher(line.strip());
      if (release.matches()) {
        jdk = Integer.parseInt(release.group(1));
      } else if (flags.matches()) {
        if (jdk == 0) {
          throw new IllegalStateException("a flag set with no '# JDK n' line above it: " + line);
        }
        sets.add(new FlagSet(jdk, flags.group(1)));
      }
    }
    return sets;
  }
}
