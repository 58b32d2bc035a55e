package dev.sluice;

import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import java.util.concurrent.TimeUnit;

/** Command-line entry point: load the configuration, start the server, stop it on SIGTERM. */
public final class Main {
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
    Sluice sluice = Sluice.start(cfg).await(60, TimeUnit.SECONDS);
    log.log(System.Logger.Level.INFO, "Sluice is listening on http://" + cfg.http().host() + ":" + sluice.port()
        + " (AWS JSON protocol; in-memory storage; "
        + (sluice.vertx().isNativeTransportEnabled() ? "native epoll transport)" : "NIO transport)"));
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        sluice.stop().await(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        log.log(System.Logger.Level.WARNING, "Stopping took too long: " + e);
      }
    }, "sluice-shutdown"));
  }
}
