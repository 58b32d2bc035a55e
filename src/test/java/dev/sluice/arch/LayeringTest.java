package dev.sluice.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The dependency direction of STYLE.md: api ← model ← engine ← protocol/http. The wire-neutral
 * contract and the pure model never import Vert.x, and the model never reads the clock.
 */
class LayeringTest {
  static List<String> offending(String pkg, String... forbidden) throws IOException {
    try (Stream<Path> files = Files.walk(Path.of("src/main/java/dev/sluice", pkg))) {
      return files.filter(p -> p.toString().endsWith(".java")).filter(p -> {
        try {
          String text = Files.readString(p);
          return Stream.of(forbidden).anyMatch(text::contains);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }).map(Path::toString).toList();
    }
  }

  @Test
  void apiAndModelDoNotImportVertx() throws IOException {
    assertEquals(List.of(), offending("api", "import io.vertx", "import io.netty"));
    assertEquals(List.of(), offending("model", "import io.vertx", "import io.netty"));
  }

  @Test
  void theModelTakesTimeAsAParameter() throws IOException {
    assertEquals(List.of(), offending("model", "System.currentTimeMillis", "System.nanoTime", "Instant.now", "Clock."));
  }

  @Test
  void apiAndModelDoNotReachUpTheLayers() throws IOException {
    assertEquals(List.of(), offending("api", "import dev.sluice.model", "import dev.sluice.engine", "import dev.sluice.protocol"));
    assertEquals(List.of(), offending("model", "import dev.sluice.engine", "import dev.sluice.protocol", "import dev.sluice.http"));
  }
}
