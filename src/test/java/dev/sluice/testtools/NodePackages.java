package dev.sluice.testtools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;

/**
 * The test tree's Node scripts with their npm packages installed: {@code src/test/node/<name>}
 * copied to {@code target/node-<name>}, {@code npm ci} run there the first time (from the lock
 * file, so every machine gets the same versions), the scripts copied again on every call so an
 * edited script is the one run.
 */
public final class NodePackages {
  private NodePackages() {}

  /** The installed copy of {@code src/test/node/<name>}, ready for {@code node <script>} in it. */
  public static synchronized Path installed(String name) throws IOException, InterruptedException {
    Path source = Path.of("src/test/node", name);
    Path dir = Path.of("target", "node-" + name);
    Files.createDirectories(dir);
    try (var files = Files.list(source)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (Files.isRegularFile(f)) {
          Files.copy(f, dir.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    if (!Files.isDirectory(dir.resolve("node_modules"))) {
      Process install = new ProcessBuilder(Tools.npm(), "ci", "--no-audit", "--no-fund").directory(dir.toFile())
          .redirectErrorStream(true).redirectOutput(dir.resolve("npm.log").toFile()).start();
      if (!install.waitFor(180, TimeUnit.SECONDS) || install.exitValue() != 0) {
        install.destroyForcibly();
        throw new IOException("npm ci failed in " + dir + ": " + Files.readString(dir.resolve("npm.log")));
      }
    }
    return dir;
  }
}
