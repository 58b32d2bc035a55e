package dev.sluice.testtools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The packaged server as a child process, started the way a user starts it ({@code java -jar}),
 * with its leftovers kept under {@code target/}: a test that kills it with SIGKILL leaves no Vert.x
 * file cache and no log behind in the machine's temporary directory.
 */
public final class ServerJar {
  private static final Path LOGS = Path.of("target", "it-logs");

  private ServerJar() {
  }

  /** The packaged jar this build made (failsafe passes its path as {@code sluice.jar}). */
  public static Path jar() {
    return Path.of(System.getProperty("sluice.jar", "target/sluice.jar"));
  }

  /** {@code java -jar sluice.jar args} with {@code env} added to this process's environment. */
  public static ProcessBuilder process(Map<String, String> env, String... args) {
    List<String> command = new ArrayList<>(List.of(Tools.java(),
        "-Dvertx.cacheDirBase=" + System.getProperty("vertx.cacheDirBase", "target/vertx-cache"), "-jar", jar().toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().putAll(env);
    return pb;
  }

  /** As {@link #process}, its output appended to {@code log}. */
  public static ProcessBuilder logging(Path log, Map<String, String> env, String... args) {
    return process(env, args).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
  }

  /**
   * A new, empty log file under {@code target/it-logs} whose name starts with {@code prefix}: kept
   * after the run so a failure can be read, and removed by {@code mvn clean}.
   */
  public static Path newLog(String prefix) {
    try {
      Files.createDirectories(LOGS);
      return Files.createTempFile(LOGS, prefix, ".log");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
