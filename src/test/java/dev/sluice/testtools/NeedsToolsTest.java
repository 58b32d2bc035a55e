package dev.sluice.testtools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every test class that runs an outside tool declares it with {@link NeedsTools}, so that a run
 * checks it before the first test starts: a class that starts PostgreSQL or asks {@link Tools} for
 * a program without declaring it would be checked only when its turn comes.
 */
class NeedsToolsTest {
  static final Path SOURCES = Path.of("src/test/java");
  static final Map<String, Tool> USES = Map.of(
      "ThrowawayPostgres.start()", Tool.POSTGRESQL,
      "Tools.postgresBin()", Tool.POSTGRESQL,
      "Tools.aws()", Tool.AWS_CLI,
      "Tools.pythonWithBoto3()", Tool.PYTHON_BOTO3,
      "Tools.chromium()", Tool.CHROMIUM,
      "Tools.node()", Tool.NODE,
      "Tools.npm()", Tool.NPM);

  @Test
  void everyClassThatRunsAToolDeclaresIt() throws Exception {
    List<String> undeclared = new ArrayList<>();
    for (Path source : testSources()) {
      String text = Files.readString(source);
      String name = SOURCES.relativize(source).toString().replace(".java", "").replace('/', '.');
      if (name.startsWith("dev.sluice.testtools.")) {
        continue;
      }
      NeedsTools declared = Class.forName(name, false, getClass().getClassLoader()).getAnnotation(NeedsTools.class);
      List<Tool> tools = declared == null ? List.of() : List.of(declared.value());
      USES.forEach((use, tool) -> {
        if (text.contains(use) && !tools.contains(tool)) {
          undeclared.add(name + " calls " + use + " without @NeedsTools(Tool." + tool + ")");
        }
      });
    }
    assertEquals(List.of(), undeclared);
  }

  static List<Path> testSources() throws IOException {
    try (Stream<Path> files = Files.walk(SOURCES)) {
      return files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
  }
}
