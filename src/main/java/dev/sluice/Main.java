package dev.sluice;

import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;
import sun.misc.Signal;

/**
 * Command-line entry point: load the configuration, start the server, stop it gracefully on
 * SIGTERM or SIGINT. Exit codes: 0 after a stop that finished within shutdown.graceMillis, 1 when
 * the grace period ran out or the start failed, 2 for invalid configuration, 3 when another server
 * claimed the database (durable mode): this one has stopped serving for good, and a restart (by
 * the orchestrator) makes it wait for the database and recover what the other wrote.
 */
public final class Main {
  /** Exit code of a server that lost its database to another (see the class comment). */
  static final int FENCED = 3;

  private Main() {}

  public static void main(String[] args) throws Exception {
    if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
      System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tFT%1$tT.%1$tL %4$s %3$s - %5$s%6$s%n");
    }
    System.Logger log = System.getLogger(Main.class.getName());
    SluiceConfig cfg;
    try {
      cfg = ConfigLoader.load(args, System.getenv());
    } catch (ConfigException e) {
      System.err.println("sluice: " + e.getMessage());
      System.exit(2);
      return;
    }
    Sluice sluice;
    try {
      sluice = Sluice.start(cfg).await(10, TimeUnit.MINUTES);
    } catch (ConfigException e) {
      // A predefined queue the engine refused, or cluster mode, not available yet: named like any other bad key.
      System.err.println("sluice: " + e.getMessage());
      System.exit(2);
      return;
    } catch (Exception e) {
      System.err.println("sluice: could not start: " + e.getMessage());
      System.exit(1);
      return;
    }
    log.log(System.Logger.Level.INFO, "Sluice is listening on " + (cfg.security().tls() ? "https://" : "http://")
        + cfg.http().host() + ":" + sluice.port()
        + " (SQS over the AWS JSON and Query protocols, " + (cfg.security().credentials().isEmpty()
            ? "unauthenticated" : "SigV4") + "; " + (cfg.storage().durable() ? "PostgreSQL, durability " + cfg.storage().durability()
        : "in-memory storage") + "; " + (sluice.vertx().isNativeTransportEnabled() ? "native epoll transport)"
        : "NIO transport)"));
    if (cfg.console().enabled()) {
      // The URL people open; never the token (design/console.md §2.3).
      // A wildcard bind is reached on this machine at the loopback address (browsers refuse 0.0.0.0).
      String host = switch (cfg.http().host()) {
        case "0.0.0.0" -> "127.0.0.1";
        case "::", "[::]" -> "[::1]";
        default -> cfg.http().host();
      };
      String base = cfg.http().publicBaseUrl().isEmpty()
          ? (cfg.security().tls() ? "https://" : "http://") + host + ":" + sluice.port()
          : cfg.http().publicBaseUrl().replaceAll("/+$", "");
      log.log(System.Logger.Level.INFO, "Console: " + base + "/console/");
    }
    log.log(System.Logger.Level.INFO, "Running on " + JvmDescription.describe());
    stopOnSignals(sluice, cfg.ops().shutdownGraceMillis(), log);
  }

  /**
   * SIGTERM (Kubernetes, systemd, docker stop) and SIGINT (Ctrl-C) stop the server gracefully and
   * exit with a code that says whether it finished in time. A JVM shutdown hook could not choose
   * the exit code: the JVM exits 143 after a SIGTERM whatever the hooks did. A server fenced off
   * its database stops the same way (answering what is under way with ServiceUnavailable) and
   * exits with {@link #FENCED}.
   */
  private static void stopOnSignals(Sluice sluice, long graceMillis, System.Logger log) {
    AtomicBoolean once = new AtomicBoolean();
    IntConsumer stop = fencedCode -> {
      if (!once.compareAndSet(false, true)) {
        return;
      }
      int code = 0;
      try {
        sluice.stop(graceMillis).await(graceMillis + 5_000, TimeUnit.MILLISECONDS);
        log.log(System.Logger.Level.INFO, "Stopped");
      } catch (Exception e) {
        log.log(System.Logger.Level.WARNING, "Stopped, but not cleanly: " + e.getMessage());
        code = 1;
      }
      System.exit(fencedCode != 0 ? fencedCode : code);
    };
    for (String name : new String[] {"TERM", "INT"}) {
      Signal.handle(new Signal(name), signal -> new Thread(() -> stop.accept(0), "sluice-shutdown").start());
    }
    sluice.fenced().onSuccess(v -> new Thread(() -> stop.accept(FENCED), "sluice-shutdown").start());
  }
}
