package dev.sluice.config;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Reads the {@code triggers:} list, from the file or from SLUICE_TRIGGERS (JSON, which is YAML too).
 * An entry is the admin API's CreateEventSourceMapping body written as YAML, with {@code QueueName}
 * in place of {@code EventSourceArn} (and {@code AccountId} and {@code Region} when not the
 * defaults); only that much is checked here, naming the offending key, the rest by the admin API's
 * own reader and the engine at start-up, exactly as a request would be. A header value may name an
 * environment variable, {@code ${env:NAME}}, so that a secret need not be written in the file.
 */
final class TriggerDefinitions {
  static final Pattern ENV = Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)}");

  private TriggerDefinitions() {}

  static List<TriggerDefinition> parse(String text, SqsConfig sqs, Map<String, String> env) {
    Object root;
    try {
      root = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
    } catch (RuntimeException e) {
      throw QueueDefinitions.invalid("triggers", "a list of triggers (" + ConfigKey.TRIGGERS.envVar()
          + " holds it as JSON): " + e.getMessage());
    }
    if (root == null) {
      return List.of();
    }
    if (!(root instanceof List<?> list)) {
      throw QueueDefinitions.invalid("triggers", "a list of triggers");
    }
    List<TriggerDefinition> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      out.add(definition("triggers[" + i + "]", list.get(i), sqs, env));
    }
    return List.copyOf(out);
  }

  private static TriggerDefinition definition(String key, Object node, SqsConfig sqs, Map<String, String> env) {
    if (!(node instanceof Map<?, ?> map)) {
      throw QueueDefinitions.invalid(key, "a mapping with QueueName and FunctionName, and optionally the other fields"
          + " of a CreateEventSourceMapping request, AccountId and Region");
    }
    if (!(map.get("QueueName") instanceof String queue) || queue.isBlank()) {
      throw QueueDefinitions.invalid(key + ".QueueName", "the name of the queue the trigger consumes");
    }
    if (map.containsKey("EventSourceArn")) {
      throw QueueDefinitions.invalid(key + ".EventSourceArn", "absent: name the queue with QueueName (and AccountId,"
          + " Region)");
    }
    QueueDefinitions.Place place = QueueDefinitions.place(key, map, sqs, "AccountId", "Region");
    Map<String, Object> request = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : map.entrySet()) {
      String field = String.valueOf(e.getKey());
      if (!field.equals("QueueName") && !field.equals("AccountId") && !field.equals("Region")) {
        request.put(field, e.getValue());
      }
    }
    if (request.get("TargetConfig") instanceof Map<?, ?> target && target.get("Headers") instanceof Map<?, ?> headers) {
      Map<String, Object> resolvedTarget = new LinkedHashMap<>(QueueDefinitions.stringKeys(target));
      Map<String, Object> resolved = new LinkedHashMap<>();
      for (Map.Entry<?, ?> h : headers.entrySet()) {
        String name = String.valueOf(h.getKey());
        resolved.put(name, resolve(key + ".TargetConfig.Headers." + name, String.valueOf(h.getValue()), env));
      }
      resolvedTarget.put("Headers", resolved);
      request.put("TargetConfig", resolvedTarget);
    }
    String json;
    try {
      json = new JsonObject(request).encode();
    } catch (RuntimeException e) {
      throw QueueDefinitions.invalid(key, "a trigger whose fields JSON can hold: " + e.getMessage());
    }
    return new TriggerDefinition(key, place.accountId(), place.region(), queue, json);
  }

  /** {@code value} with each {@code ${env:NAME}} replaced by that variable, which must be set. */
  static String resolve(String key, String value, Map<String, String> env) {
    Matcher m = ENV.matcher(value);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String v = env.get(m.group(1));
      if (v == null) {
        throw QueueDefinitions.invalid(key, "a value whose ${env:" + m.group(1) + "} is set in the environment");
      }
      m.appendReplacement(out, Matcher.quoteReplacement(v));
    }
    m.appendTail(out);
    return out.toString();
  }
}
