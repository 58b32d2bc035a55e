package dev.sluice.testtools;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Finds the outside programs the tests run, each in one place and the way people install them:
 * on the PATH first (.ci/run adds pyenv's shims to it), then where their packages put them. Each
 * finder answers the program's path, or throws {@link MissingToolsException} saying what is missing
 * and how to install it. A test never installs anything itself.
 */
public final class Tools {
  /** Where a tool was found, or why it is not usable; exactly one of the two is set. */
  record Lookup(String location, String problem) {
    static Lookup at(Path path) {
      return new Lookup(path.toString(), null);
    }

    static Lookup missing(String problem) {
      return new Lookup(null, problem);
    }
  }

  static final String CHROMIUM_ENV = "SLUICE_TEST_CHROMIUM";

  private static final List<String> CHROMIUM_NAMES =
      List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable");
  private static final List<String> CHROMIUM_PLACES = List.of("/usr/bin/chromium", "/snap/bin/chromium",
      "/Applications/Chromium.app/Contents/MacOS/Chromium",
      "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome");

  /** Looking a tool up may start processes (and unpack PostgreSQL), so each is looked up once. */
  private static final Map<Tool, Lookup> LOOKUPS = new ConcurrentHashMap<>();

  private Tools() {}

  /** The directory holding PostgreSQL's initdb, pg_ctl and postgres. */
  public static Path postgresBin() {
    return Path.of(require(Tool.POSTGRESQL));
  }

  public static String aws() {
    return require(Tool.AWS_CLI);
  }

  /** A python3 that imports boto3. */
  public static String pythonWithBoto3() {
    return require(Tool.PYTHON_BOTO3);
  }

  public static String chromium() {
    return require(Tool.CHROMIUM);
  }

  public static String node() {
    return require(Tool.NODE);
  }

  public static String npm() {
    return require(Tool.NPM);
  }

  /** The java of the JDK running the tests, to start the packaged jar with the same one. */
  public static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** Each of {@code tools} that is not usable here, with why, in the order of {@link Tool}. */
  public static Map<Tool, String> missing(Collection<Tool> tools) {
    Map<Tool, String> missing = new EnumMap<>(Tool.class);
    for (Tool tool : tools) {
      Lookup found = lookup(tool);
      if (found.problem() != null) {
        missing.put(tool, found.problem());
      }
    }
    return missing;
  }

  /** One message naming every missing tool, why, and how to install it. */
  public static String message(Map<Tool, String> missing) {
    return missing.entrySet().stream()
        .map(e -> "  - " + e.getKey().title() + ": " + e.getValue() + ".\n      Install: " + e.getKey().install())
        .collect(Collectors.joining("\n",
            "Missing tools: the selected tests need programs this machine does not have (README.md, \"Development\"):\n",
            ""));
  }

  private static String require(Tool tool) {
    Lookup found = lookup(tool);
    if (found.problem() != null) {
      throw new MissingToolsException(message(Map.of(tool, found.problem())));
    }
    return found.location();
  }

  private static Lookup lookup(Tool tool) {
    return LOOKUPS.computeIfAbsent(tool, Tools::locate);
  }

  private static Lookup locate(Tool tool) {
    return switch (tool) {
      case POSTGRESQL -> PostgresBinaries.locate();
      case AWS_CLI -> runnable("aws", "--version");
      case PYTHON_BOTO3 -> pythonWithBoto3Lookup();
      case CHROMIUM -> chromiumLookup();
      case NODE -> runnable("node", "--version");
      case NPM -> runnable("npm", "--version");
    };
  }

  /** {@code name} from the PATH, if it runs {@code probe} successfully. */
  private static Lookup runnable(String name, String... probe) {
    Optional<Path> path = onPath(name);
    if (path.isEmpty()) {
      return Lookup.missing(name + " is not on the PATH");
    }
    List<String> command = new ArrayList<>(List.of(path.get().toString()));
    command.addAll(List.of(probe));
    return succeeds(command) ? Lookup.at(path.get())
        : Lookup.missing(String.join(" ", command) + " fails");
  }

  private static Lookup pythonWithBoto3Lookup() {
    Optional<Path> python = onPath("python3");
    if (python.isEmpty()) {
      return Lookup.missing("python3 is not on the PATH");
    }
    return succeeds(List.of(python.get().toString(), "-c", "import boto3")) ? Lookup.at(python.get())
        : Lookup.missing("python3 (" + python.get() + ") cannot import boto3");
  }

  private static Lookup chromiumLookup() {
    String configured = System.getenv(CHROMIUM_ENV);
    if (configured != null && !configured.isBlank()) {
      return Files.isExecutable(Path.of(configured)) ? Lookup.at(Path.of(configured))
          : Lookup.missing(CHROMIUM_ENV + "=" + configured + " is not an executable file");
    }
    for (String name : CHROMIUM_NAMES) {
      Optional<Path> path = onPath(name);
      if (path.isPresent()) {
        return Lookup.at(path.get());
      }
    }
    for (String place : CHROMIUM_PLACES) {
      if (Files.isExecutable(Path.of(place))) {
        return Lookup.at(Path.of(place));
      }
    }
    return Lookup.missing("none of " + String.join(", ", CHROMIUM_NAMES) + " is on the PATH, nor at "
        + String.join(", ", CHROMIUM_PLACES));
  }

  /** The first executable file called {@code name} in a directory of the PATH. */
  static Optional<Path> onPath(String name) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      try {
        Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      } catch (InvalidPathException notAPath) {
        // a PATH entry that is no path at all: skip it
      }
    }
    return Optional.empty();
  }

  /** Whether {@code command} exits 0 within a minute (its output is not wanted). */
  static boolean succeeds(List<String> command) {
    return output(command).isPresent();
  }

  /** What {@code command} prints, if it exits 0 within a minute. */
  static Optional<String> output(List<String> command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getOutputStream().close();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return Optional.empty();
      }
      return p.exitValue() == 0 ? Optional.of(out) : Optional.empty();
    } catch (IOException cannotRun) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** PostgreSQL refuses to run as root: as root the tests run it as the user {@code postgres}. */
  static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  /**
   * The command that runs {@code command} as the user postgres (util-linux's runuser, which lives
   * in an sbin directory that a user's PATH may lack); empty when there is no runuser.
   */
  static Optional<List<String>> asPostgres(List<String> command) {
    return onPath("runuser")
        .or(() -> Stream.of("/usr/sbin/runuser", "/sbin/runuser").map(Path::of).filter(Files::isExecutable).findFirst())
        .map(runuser -> {
          List<String> full = new ArrayList<>(List.of(runuser.toString(), "-u", "postgres", "--"));
          full.addAll(command);
          return full;
        });
  }
}
