package dev.sluice.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The dependency direction of the architecture page (src/site/markdown/architecture.md): each
 * package imports only the packages its table row names, so the arrows never turn into a cycle; the
 * wire-neutral contract, the pure model and the access rules never import Vert.x, and neither the
 * model nor the access rules read the clock; the Java client stands apart, on Vert.x core and Mutiny
 * alone.
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
    assertEquals(List.of(), offending("access", "import io.vertx", "import io.netty"));
  }

  @Test
  void theModelTakesTimeAsAParameter() throws IOException {
    assertEquals(List.of(), offending("model", "System.currentTimeMillis", "System.nanoTime", "Instant.now", "Clock."));
    assertEquals(List.of(), offending("access", "System.currentTimeMillis", "System.nanoTime", "Instant.now", "Clock."));
  }

  @Test
  void apiAndModelDoNotReachUpTheLayers() throws IOException {
    assertEquals(List.of(), offending("api", "import dev.sluice.model", "import dev.sluice.engine", "import dev.sluice.protocol"));
    assertEquals(List.of(), offending("model", "import dev.sluice.engine", "import dev.sluice.protocol", "import dev.sluice.http"));
  }

  /** Which of Sluice's packages each package may import (as the architecture page's table says). */
  static final java.util.Map<String, java.util.Set<String>> MAY_IMPORT = java.util.Map.ofEntries(
      java.util.Map.entry("api", java.util.Set.of()),
      java.util.Map.entry("client", java.util.Set.of()),
      java.util.Map.entry("config", java.util.Set.of("access")),
      java.util.Map.entry("runtime", java.util.Set.of()),
      java.util.Map.entry("cluster", java.util.Set.of("api", "config", "engine", "metrics", "persistence", "runtime")),
      java.util.Map.entry("access", java.util.Set.of("api")),
      java.util.Map.entry("model", java.util.Set.of("access", "api")),
      java.util.Map.entry("topics", java.util.Set.of("api", "model")),
      java.util.Map.entry("triggers", java.util.Set.of("api", "model", "topics")),
      java.util.Map.entry("persistence", java.util.Set.of("api", "config", "runtime")),
      java.util.Map.entry("outbound", java.util.Set.of()),
      java.util.Map.entry("engine", java.util.Set.of("access", "api", "model", "outbound", "persistence", "runtime",
          "topics", "triggers")),
      java.util.Map.entry("invoke", java.util.Set.of("api", "engine", "metrics", "outbound", "triggers")),
      java.util.Map.entry("outbox", java.util.Set.of("api", "config", "engine", "metrics")),
      java.util.Map.entry("metrics", java.util.Set.of("api", "model", "engine", "persistence")),
      java.util.Map.entry("protocol", java.util.Set.of("api", "engine", "metrics")),
      java.util.Map.entry("auth", java.util.Set.of("access", "api", "config")),
      java.util.Map.entry("push", java.util.Set.of("access", "api", "auth", "config", "engine", "runtime")),
      java.util.Map.entry("console", java.util.Set.of("api", "config", "engine", "runtime")),
      java.util.Map.entry("http", java.util.Set.of("access", "api", "auth", "config", "console", "engine", "metrics",
          "model", "outbox", "protocol", "push", "runtime")));

  @Test
  void eachPackageImportsOnlyWhatItsRowAllows() throws IOException {
    java.util.List<String> wrong = new java.util.ArrayList<>();
    java.util.regex.Pattern sluiceImport = java.util.regex.Pattern.compile("(?m)^import dev\\.sluice\\.([a-z]+)");
    try (Stream<Path> packages = Files.list(Path.of("src/main/java/dev/sluice"))) {
      for (Path pkg : packages.filter(Files::isDirectory).toList()) {
        String name = pkg.getFileName().toString();
        java.util.Set<String> allowed = MAY_IMPORT.get(name);
        if (allowed == null) {
          wrong.add(name + " is not in the table: add its row here and on the architecture page");
          continue;
        }
        try (Stream<Path> files = Files.walk(pkg)) {
          for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
            java.util.regex.Matcher m = sluiceImport.matcher(Files.readString(f));
            while (m.find()) {
              if (!m.group(1).equals(name) && !allowed.contains(m.group(1))) {
                wrong.add(f + " imports dev.sluice." + m.group(1));
              }
            }
          }
        }
      }
    }
    assertEquals(List.of(), wrong);
  }

  /**
   * The client is its own artifact whose pom names vertx-core and Mutiny only (src/client/pom.xml):
   * anything else it imported would be missing for its users, and a server class importing it would
   * be missing from the runnable jar.
   */
  @Test
  void theClientImportsOnlyTheJdkVertxCoreAndMutinyAndNothingImportsIt() throws IOException {
    java.util.List<String> wrong = new java.util.ArrayList<>();
    java.util.regex.Pattern anyImport = java.util.regex.Pattern.compile("(?m)^import\\s+(?:static\\s+)?([\\w.]+)");
    List<String> allowed = List.of("java.", "io.vertx.core.", "io.smallrye.mutiny.", "dev.sluice.client.");
    try (Stream<Path> files = Files.walk(Path.of("src/main/java/dev/sluice"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        boolean client = f.startsWith(Path.of("src/main/java/dev/sluice/client"));
        java.util.regex.Matcher m = anyImport.matcher(Files.readString(f));
        while (m.find()) {
          String imported = m.group(1);
          if (client && allowed.stream().noneMatch(imported::startsWith)) {
            wrong.add(f + " imports " + imported + ": the client may use only java, Vert.x core and Mutiny");
          } else if (!client && imported.startsWith("dev.sluice.client.")) {
            wrong.add(f + " imports " + imported + ": the server may not use the client");
          }
        }
      }
    }
    assertEquals(List.of(), wrong);
  }

  @Test
  void onlyTheRuntimeAdapterReachesVertxInternals() throws IOException {
    List<String> reaching = new java.util.ArrayList<>();
    for (String pkg : MAY_IMPORT.keySet()) {
      if (!pkg.equals("runtime")) {
        reaching.addAll(offending(pkg, "io.vertx.core.internal"));
      }
    }
    assertEquals(List.of(), reaching);
  }

  @Test
  void everyPackageSaysWhatItIsFor() throws IOException {
    try (Stream<Path> dirs = Files.walk(Path.of("src/main/java/dev/sluice"))) {
      List<String> missing = dirs.filter(Files::isDirectory)
          .filter(d -> {
            try (Stream<Path> f = Files.list(d)) {
              return f.anyMatch(p -> p.toString().endsWith(".java"));
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          })
          .filter(d -> !Files.exists(d.resolve("package-info.java")))
          .map(Path::toString).toList();
      assertEquals(List.of(), missing, "a package-info.java states each package's one job");
    }
  }
}
