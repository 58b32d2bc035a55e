package dev.sluice.testtools;

import dev.sluice.testtools.Tools.Lookup;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.tukaani.xz.XZInputStream;

/**
 * Finds PostgreSQL's server programs for {@link ThrowawayPostgres}, in this order:
 * <ol>
 *   <li>{@code SLUICE_TEST_PG_BIN}, a directory holding initdb and pg_ctl, or {@code maven} to
 *       skip the machine's own PostgreSQL for the binaries from Maven Central;
 *   <li>initdb and pg_ctl on the PATH;
 *   <li>{@code pg_config --bindir};
 *   <li>Debian's {@code /usr/lib/postgresql/<version>/bin}, newest version first;
 *   <li>Homebrew's {@code postgresql@<version>} (Apple silicon, then Intel) and {@code /opt/homebrew/bin};
 *   <li>else the binaries published on Maven Central for embedded use, a test dependency of the
 *       build for this platform: a .txz in a jar, unpacked under {@code target/} once per build.
 * </ol>
 * As root the programs run as the user {@code postgres}, which must be able to reach them.
 */
final class PostgresBinaries {
  static final String ENV = "SLUICE_TEST_PG_BIN";
  /** The value of {@link #ENV} that asks for the binaries from Maven Central. */
  static final String FROM_MAVEN = "maven";
  private static final String UNPACKED = ".unpacked";

  private PostgresBinaries() {}

  static Lookup locate() {
    String configured = System.getenv(ENV);
    if (configured != null && !configured.isBlank()) {
      if (configured.equals(FROM_MAVEN)) {
        return fromMaven();
      }
      Path dir = Path.of(configured).toAbsolutePath();
      return hasServer(dir) ? usable(dir) : Lookup.missing(ENV + "=" + configured + " holds no initdb and pg_ctl");
    }
    return installed().map(PostgresBinaries::usable).orElseGet(PostgresBinaries::fromMaven);
  }

  /** The machine's own PostgreSQL, where it has one. */
  private static Optional<Path> installed() {
    return onPath()
        .or(PostgresBinaries::fromPgConfig)
        .or(() -> newest(Path.of("/usr/lib/postgresql"), ""))
        .or(() -> newest(Path.of("/opt/homebrew/opt"), "postgresql@"))
        .or(() -> newest(Path.of("/usr/local/opt"), "postgresql@"))
        .or(() -> Optional.of(Path.of("/opt/homebrew/bin")).filter(PostgresBinaries::hasServer));
  }

  /**
   * initdb and pg_ctl on the PATH, as the directory they really live in: the PATH may hold links
   * to them (as /usr/local/bin may), and postgres itself is found next to the real pg_ctl.
   */
  private static Optional<Path> onPath() {
    Optional<Path> initdb = Tools.onPath("initdb");
    if (initdb.isEmpty() || !Files.isExecutable(initdb.get().resolveSibling("pg_ctl"))) {
      return Optional.empty();
    }
    try {
      Path real = initdb.get().toRealPath().getParent();
      return Optional.of(hasServer(real) ? real : initdb.get().getParent());
    } catch (IOException e) {
      return Optional.of(initdb.get().getParent());
    }
  }

  private static Optional<Path> fromPgConfig() {
    return Tools.onPath("pg_config")
        .flatMap(pgConfig -> Tools.output(List.of(pgConfig.toString(), "--bindir")))
        .map(out -> Path.of(out.trim()))
        .filter(PostgresBinaries::hasServer);
  }

  /** {@code parent/<prefix><version>/bin} with the highest major version that holds a server. */
  private static Optional<Path> newest(Path parent, String prefix) {
    if (!Files.isDirectory(parent)) {
      return Optional.empty();
    }
    try (Stream<Path> children = Files.list(parent)) {
      return children
          .filter(c -> c.getFileName().toString().startsWith(prefix))
          .filter(c -> majorVersion(c.getFileName().toString().substring(prefix.length())) >= 0)
          .map(c -> c.resolve("bin"))
          .filter(PostgresBinaries::hasServer)
          .max(Comparator.comparingInt(b -> majorVersion(b.getParent().getFileName().toString().substring(prefix.length()))));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** 15 for "15", "15.4" or "15-beta"; -1 when the name does not start with a number. */
  private static int majorVersion(String name) {
    int end = 0;
    while (end < name.length() && Character.isDigit(name.charAt(end))) {
      end++;
    }
    return end == 0 || end > 4 ? -1 : Integer.parseInt(name.substring(0, end));
  }

  static boolean hasServer(Path dir) {
    return Files.isExecutable(dir.resolve("initdb")) && Files.isExecutable(dir.resolve("pg_ctl"))
        && Files.isExecutable(dir.resolve("postgres"));
  }

  /** {@code bin}, once it is known that PostgreSQL can run from it here. */
  private static Lookup usable(Path bin) {
    if (!Tools.isRoot()) {
      return Lookup.at(bin);
    }
    if (Tools.asPostgres(List.of()).isEmpty()) {
      return Lookup.missing("as root the tests start PostgreSQL with runuser (util-linux), which is not installed");
    }
    if (!Tools.succeeds(List.of("id", "-u", "postgres"))) {
      return Lookup.missing("as root the tests run PostgreSQL as the user postgres, which does not exist"
          + " (apt install postgresql creates it, as does useradd --system --user-group postgres)");
    }
    if (!reachableByPostgres(bin)) {
      return Lookup.missing("the user postgres cannot run " + bin.resolve("pg_ctl")
          + ": every directory above it must be searchable by others (chmod o+x)");
    }
    return Lookup.at(bin);
  }

  private static boolean reachableByPostgres(Path bin) {
    return Tools.asPostgres(List.of("test", "-x", bin.resolve("pg_ctl").toString()))
        .map(Tools::succeeds).orElse(false);
  }

  /**
   * The binaries from Maven Central for this platform (the build puts the one artifact that
   * matches it on the test classpath), unpacked once into {@code target/postgresql/}. As root,
   * where the user postgres cannot reach {@code target/} (a project under /root, say), they are
   * unpacked into the temporary directory instead.
   */
  private static Lookup fromMaven() {
    String resource = "postgres-" + os() + "-" + arch() + ".txz";
    URL archive = PostgresBinaries.class.getClassLoader().getResource(resource);
    if (archive == null) {
      return Lookup.missing("none is installed, and the test classpath holds no PostgreSQL binaries for "
          + System.getProperty("os.name") + " on " + System.getProperty("os.arch") + " (" + resource + ")");
    }
    String name = bundleName(archive);
    try {
      Path bin = unpack(archive, Path.of("target", "postgresql", name).toAbsolutePath()).resolve("bin");
      if (Tools.isRoot() && Tools.succeeds(List.of("id", "-u", "postgres")) && !reachableByPostgres(bin)) {
        bin = unpack(archive, Path.of(System.getProperty("java.io.tmpdir"), "sluice-" + name)).resolve("bin");
      }
      return usable(bin);
    } catch (IOException e) {
      return Lookup.missing("unpacking " + archive + " failed: " + e);
    }
  }

  private static String os() {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    return os.startsWith("mac") ? "darwin" : os.startsWith("windows") ? "windows" : os;
  }

  private static String arch() {
    String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
    return switch (arch) {
      case "amd64", "x86_64" -> "x86_64";
      case "aarch64", "arm64" -> "arm_64";
      default -> arch;
    };
  }

  /** The name of the jar holding the archive (artifact and version), to name its directory by. */
  private static String bundleName(URL archive) {
    String url = archive.toString();
    int bang = url.indexOf("!/");
    String jar = bang < 0 ? url : url.substring(0, bang);
    String file = jar.substring(jar.lastIndexOf('/') + 1);
    return file.endsWith(".jar") ? file.substring(0, file.length() - 4) : "postgres-" + os() + "-" + arch();
  }

  /**
   * Unpacks {@code archive} into {@code dir} unless a complete copy is there: into a directory of
   * its own first, moved into place when whole, so that an interrupted run leaves nothing half done
   * and two test JVMs unpacking at once both end up with one complete copy.
   */
  static Path unpack(URL archive, Path dir) throws IOException {
    if (Files.exists(dir.resolve(UNPACKED))) {
      return dir;
    }
    if (Files.exists(dir)) {
      delete(dir);
    }
    Files.createDirectories(dir.getParent());
    Path partial = Files.createTempDirectory(dir.getParent(), dir.getFileName() + ".partial-");
    try {
      extract(archive, partial);
      Files.createFile(partial.resolve(UNPACKED));
      Files.setPosixFilePermissions(partial, permissions(0755));
      Files.move(partial, dir, StandardCopyOption.ATOMIC_MOVE);
    } catch (FileAlreadyExistsException | DirectoryNotEmptyException anotherRunWasFirst) {
      delete(partial);
    } catch (IOException | RuntimeException e) {
      delete(partial);
      throw e;
    }
    return dir;
  }

  /** A tar archive compressed with xz, keeping modes and symbolic links (the libraries use them). */
  private static void extract(URL archive, Path into) throws IOException {
    Map<Path, Integer> directoryModes = new LinkedHashMap<>();
    try (InputStream in = archive.openStream();
        TarArchiveInputStream tar = new TarArchiveInputStream(new XZInputStream(new BufferedInputStream(in)))) {
      for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
        Path target = into.resolve(entry.getName()).normalize();
        if (!target.startsWith(into)) {
          throw new IOException("archive entry outside its directory: " + entry.getName());
        }
        if (entry.isDirectory()) {
          Files.createDirectories(target);
          directoryModes.put(target, entry.getMode());
          continue;
        }
        Files.createDirectories(target.getParent());
        if (entry.isSymbolicLink()) {
          Files.createSymbolicLink(target, Path.of(entry.getLinkName()));
          continue;
        }
        if (entry.isLink()) {
          Files.copy(into.resolve(entry.getLinkName()).normalize(), target);
        } else {
          Files.copy(tar, target);
        }
        Files.setPosixFilePermissions(target, permissions(entry.getMode()));
      }
    }
    // Last, so that a directory without write permission is filled first.
    for (Map.Entry<Path, Integer> d : directoryModes.entrySet()) {
      Files.setPosixFilePermissions(d.getKey(), permissions(d.getValue()));
    }
  }

  private static Set<PosixFilePermission> permissions(int mode) {
    Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
    PosixFilePermission[] bits = {
        PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
        PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
        PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ};
    for (int i = 0; i < bits.length; i++) {
      if ((mode & (1 << i)) != 0) {
        set.add(bits[i]);
      }
    }
    return set;
  }

  private static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      all.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.delete(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
