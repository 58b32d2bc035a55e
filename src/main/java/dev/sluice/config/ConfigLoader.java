package dev.sluice.config;

import io.vertx.core.json.JsonArray;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Reads the configuration, each layer overriding the one before: the defaults shipped in the jar
 * (conf/sluice.yaml), a config file (--config PATH, else $SLUICE_CONFIG, else ./conf/sluice.yaml
 * when present), then SLUICE_* environment variables. Unknown keys and bad values fail start-up
 * with a message naming the key. Runs once, before Vert.x starts.
 */
public final class ConfigLoader {
  static final String BUNDLED = "conf/sluice.yaml";
  /** The keys whose value may be a list of mappings. */
  private static final Set<String> STRUCTURED = Set.of(ConfigKey.QUEUES.path(), ConfigKey.TOPICS.path(),
      ConfigKey.TRIGGERS.path(), ConfigKey.CREDENTIALS.path(), ConfigKey.OUTBOX_SOURCES.path());
  /** The keys that are comma-separated lists, which a file may also give as a YAML list. */
  private static final Set<String> LISTS = Set.of(ConfigKey.SQS_REGIONS.path(), ConfigKey.CLUSTER_MEMBERS.path());

  private ConfigLoader() {}

  public static SluiceConfig load(String[] args, Map<String, String> env) {
    Map<String, String> values = bundledValues();
    Path file = configFile(args, env);
    if (file != null) {
      try (InputStream in = Files.newInputStream(file)) {
        flatten("", parseYaml(in, file.toString()), values, file.toString());
      } catch (IOException e) {
        throw new ConfigException("Cannot read the configuration file " + file + ": " + e.getMessage());
      }
    }
    for (ConfigKey k : ConfigKey.values()) {
      String v = env.get(k.envVar());
      if (v != null) {
        values.put(k.path(), v);
      }
    }
    return ConfigValues.toConfig(values, env);
  }

  /** The defaults shipped in the jar, as flat key → value strings. */
  static Map<String, String> bundledValues() {
    Map<String, String> values = new LinkedHashMap<>();
    try (InputStream in = ConfigLoader.class.getClassLoader().getResourceAsStream(BUNDLED)) {
      if (in == null) {
        throw new ConfigException("The bundled " + BUNDLED + " is missing from the classpath");
      }
      flatten("", parseYaml(in, BUNDLED), values, BUNDLED);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return values;
  }

  static Path configFile(String[] args, Map<String, String> env) {
    for (int i = 0; i < args.length; i++) {
      if ((args[i].equals("--config") || args[i].equals("-conf")) && i + 1 < args.length) {
        Path p = Path.of(args[i + 1]);
        if (!Files.isReadable(p)) {
          throw new ConfigException("The configuration file " + p + " given by " + args[i] + " is not readable");
        }
        return p;
      }
    }
    String fromEnv = env.get("SLUICE_CONFIG");
    if (fromEnv != null && !fromEnv.isEmpty()) {
      Path p = Path.of(fromEnv);
      if (!Files.isReadable(p)) {
        throw new ConfigException("The configuration file " + p + " given by SLUICE_CONFIG is not readable");
      }
      return p;
    }
    Path local = Path.of(BUNDLED);
    return Files.isReadable(local) ? local : null;
  }

  private static Object parseYaml(InputStream in, String source) {
    try {
      return new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
    } catch (RuntimeException e) {
      throw new ConfigException("The configuration file " + source + " is not valid YAML: " + e.getMessage());
    }
  }

  private static void flatten(String prefix, Object node, Map<String, String> out, String source) {
    if (node == null) {
      return;
    }
    if (!(node instanceof Map<?, ?> map)) {
      throw new ConfigException("Expected a mapping at '" + (prefix.isEmpty() ? "(top)" : prefix) + "' in " + source);
    }
    for (Map.Entry<?, ?> e : map.entrySet()) {
      String path = prefix.isEmpty() ? String.valueOf(e.getKey()) : prefix + "." + e.getKey();
      if (e.getValue() instanceof Map<?, ?>) {
        flatten(path, e.getValue(), out, source);
      } else if (e.getValue() instanceof List<?> list && STRUCTURED.contains(path)) {
        // Kept whole, as JSON, as the environment gives it (see QueueDefinitions, CredentialDefinitions).
        out.put(path, new JsonArray(list).encode());
      } else if (e.getValue() instanceof List<?> list && LISTS.contains(path)) {
        out.put(path, String.join(",", list.stream().map(String::valueOf).toList()));
      } else if (ConfigKey.byPath(path).isEmpty()) {
        throw new ConfigException("Unknown configuration key '" + path + "' in " + source);
      } else {
        out.put(path, e.getValue() == null ? "" : String.valueOf(e.getValue()));
      }
    }
  }
}
