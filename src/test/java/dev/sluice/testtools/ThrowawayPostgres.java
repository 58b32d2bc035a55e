package dev.sluice.testtools;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL cluster of its own for a test class, from the binaries {@link Tools#postgresBin}
 * finds: a fresh data directory in a temporary directory, started on a free port of 127.0.0.1 with
 * the socket directory in that directory, stopped and removed at the end. The data directory is a
 * copy of one made by {@code initdb} once per JVM (copying takes a tenth of initdb's second, which
 * some twenty test classes paid each). initdb and postgres refuse to run as root, so as root both
 * run as the {@code postgres} user, which then owns the directories. Never depends on a server
 * someone started by hand.
 */
public final class ThrowawayPostgres implements AutoCloseable {
  private final Path binDir;
  private final Path dir;
  private final int port;
  /** initdb's output, made once per JVM and copied for every cluster; removed when the JVM exits. */
  private static Path template;

  private ThrowawayPostgres(Path binDir, Path dir, int port) {
    this.binDir = binDir;
    this.dir = dir;
    this.port = port;
  }

  /** initdb and start; throws {@link MissingToolsException} where PostgreSQL cannot be found. */
  public static ThrowawayPostgres start() throws IOException, InterruptedException {
    Path bin = Tools.postgresBin();
    Path dir = Files.createTempDirectory("sluice-pg-");
    if (Tools.isRoot()) {
      run(List.of("chown", "postgres:", dir.toString())); // and its login group
    }
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    ThrowawayPostgres pg = new ThrowawayPostgres(bin, dir, port);
    // cp -a keeps the owner (postgres, as root) and the data directory's mode 0700.
    run(List.of("cp", "-a", template(bin).toString(), dir.resolve("data").toString()));
    pg.asPostgres(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(),
        "-l", dir.resolve("server.log").toString(), "-w", "-t", "30",
        "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off"
            + " -c full_page_writes=off",
        "start");
    return pg;
  }

  /** The data directory initdb made for this JVM's clusters, made on first use. */
  private static synchronized Path template(Path bin) throws IOException, InterruptedException {
    if (template == null) {
      Path dir = Files.createTempDirectory("sluice-pg-template-");
      if (Tools.isRoot()) {
        run(List.of("chown", "postgres:", dir.toString()));
      }
      List<String> initdb = List.of(bin.resolve("initdb").toString(), "-D", dir.resolve("data").toString(), "-A",
          "trust", "-U", "postgres", "-E", "UTF8", "--no-locale", "--no-sync");
      run(Tools.isRoot() ? Tools.asPostgres(initdb).orElseThrow() : initdb);
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try {
          run(List.of("rm", "-rf", dir.toString()));
        } catch (IOException | InterruptedException | IllegalStateException e) {
          // a leftover in the temporary directory, nothing more
        }
      }));
      template = dir.resolve("data");
    }
    return template;
  }

  public int port() {
    return port;
  }

  /** postgresql://postgres@127.0.0.1:port/postgres, the form SLUICE_PG_URL takes. */
  public String url() {
    return "postgresql://postgres@127.0.0.1:" + port + "/postgres";
  }

  /** Stops the server (fast shutdown, or at once if it lingers) and removes its directory. */
  @Override
  public void close() throws IOException {
    try {
      try {
        asPostgres(binDir.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "fast", "-w",
            "stop");
      } catch (IllegalStateException alreadyStopped) {
        // nothing to stop
      }
      run(List.of("rm", "-rf", dir.toString()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while stopping PostgreSQL in " + dir, e);
    }
  }

  /** Stops the server at once (for outage tests); {@link #restart} brings it back. */
  public void stopNow() throws IOException, InterruptedException {
    asPostgres(binDir.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "immediate", "-w",
        "stop");
  }

  public void restart() throws IOException, InterruptedException {
    asPostgres(binDir.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(),
        "-l", dir.resolve("server.log").toString(), "-w", "-t", "30",
        "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off"
            + " -c full_page_writes=off",
        "start");
  }

  private void asPostgres(String... command) throws IOException, InterruptedException {
    List<String> plain = List.of(command);
    run(Tools.isRoot() ? Tools.asPostgres(plain).orElseThrow() : plain);
  }

  private static void run(List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getOutputStream().close();
    String output = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed:\n" + output);
    }
  }
}
