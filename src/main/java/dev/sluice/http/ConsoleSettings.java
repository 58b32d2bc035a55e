package dev.sluice.http;

import dev.sluice.auth.ConsolePolicy;
import dev.sluice.auth.Surfaces;
import dev.sluice.config.ConsoleConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.SqsConfig;
import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * What the console's routes need to know of the server, settled once before the port opens: who
 * may use it ({@link ConsolePolicy}), its configuration section, the default account and region
 * (the operator's) and the regions served, the storage mode and the server's version. Immutable.
 *
 * @param mode {@code memory}, {@code postgres}, {@code paged} (pg.headWindowMessages above 0) or {@code cluster}
 * @param version the Maven version of the jar running; {@code development} when run from classes
 */
public record ConsoleSettings(ConsolePolicy policy, ConsoleConfig config, SqsConfig sqs, String mode,
    String version) {
  private static final String POM_PROPERTIES = "/META-INF/maven/dev.sluice/sluice/pom.properties";

  /** Reads the version from the jar: call it on the starting thread, not on an event loop. */
  public static ConsoleSettings of(SluiceConfig cfg, Surfaces surfaces) {
    String mode = cfg.cluster().enabled() ? "cluster" : cfg.storage().paged() ? "paged"
        : cfg.storage().durable() ? "postgres" : "memory";
    return new ConsoleSettings(surfaces.console(), cfg.console(), cfg.sqs(), mode, jarVersion());
  }

  private static String jarVersion() {
    try (InputStream in = ConsoleSettings.class.getResourceAsStream(POM_PROPERTIES)) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        return p.getProperty("version", "development");
      }
    } catch (IOException unreadable) {
      // reported as a development build, below
    }
    return "development";
  }
}
