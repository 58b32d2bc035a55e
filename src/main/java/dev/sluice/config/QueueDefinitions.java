package dev.sluice.config;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Reads the {@code queues:} list, from the file or from SLUICE_QUEUES (JSON, which is YAML too).
 * Checks the shape here, naming the offending key, and gives each queue the default account and
 * region unless it names others (a region the server serves); the attribute values themselves are checked by
 * the engine when the queue is created, exactly as a CreateQueue request would be.
 */
final class QueueDefinitions {
  private static final Set<String> FIELDS =
      Set.of("name", "accountId", "region", "attributes", "tags", "deadLetterQueue", "maxReceiveCount",
          "redeliveryBackoff");

  private QueueDefinitions() {}

  static List<QueueDefinition> parse(String text, SqsConfig sqs) {
    Object root;
    try {
      root = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
    } catch (RuntimeException e) {
      throw invalid("queues", "a list of queues (" + ConfigKey.QUEUES.envVar() + " holds it as JSON): " + e.getMessage());
    }
    if (root == null) {
      return List.of();
    }
    if (!(root instanceof List<?> list)) {
      throw invalid("queues", "a list of queues");
    }
    List<QueueDefinition> out = new ArrayList<>();
    Set<List<String>> queues = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      QueueDefinition q = definition("queues[" + i + "]", list.get(i), sqs);
      if (!queues.add(List.of(q.accountId(), q.region(), q.name()))) {
        throw invalid(q.key() + ".name", "a name not used by an earlier queue of its account and region; '" + q.name()
            + "' is defined twice");
      }
      out.add(q);
    }
    return List.copyOf(out);
  }

  private static QueueDefinition definition(String key, Object node, SqsConfig sqs) {
    if (!(node instanceof Map<?, ?> map)) {
      throw invalid(key, "a mapping with name, and optionally accountId, region, attributes, tags, deadLetterQueue,"
          + " maxReceiveCount, redeliveryBackoff");
    }
    for (Object field : map.keySet()) {
      if (!FIELDS.contains(String.valueOf(field))) {
        throw new ConfigException("Unknown configuration key '" + key + "." + field + "'; a queue takes " + FIELDS);
      }
    }
    if (!(map.get("name") instanceof String name) || name.isBlank()) {
      throw invalid(key + ".name", "the queue's name");
    }
    Place place = place(key, map, sqs);
    Map<String, String> attributes = strings(key + ".attributes", map.get("attributes"));
    Map<String, String> tags = strings(key + ".tags", map.get("tags"));
    Object dlq = map.get("deadLetterQueue");
    Object maxReceives = map.get("maxReceiveCount");
    if (dlq != null && !(dlq instanceof String)) {
      throw invalid(key + ".deadLetterQueue", "the name of the dead-letter queue");
    }
    if ((dlq == null) != (maxReceives == null)) {
      throw invalid(key + (dlq == null ? ".deadLetterQueue" : ".maxReceiveCount"),
          "deadLetterQueue and maxReceiveCount given together");
    }
    if (dlq != null && attributes.containsKey("RedrivePolicy")) {
      throw invalid(key + ".deadLetterQueue", "either deadLetterQueue or attributes.RedrivePolicy, not both");
    }
    int count = 0;
    if (maxReceives != null) {
      if (!(maxReceives instanceof Integer n) || n < 1 || n > 1000) {
        throw invalid(key + ".maxReceiveCount", "an integer between 1 and 1000");
      }
      count = n;
    }
    return new QueueDefinition(key, place.accountId(), place.region(), name, attributes, tags, (String) dlq, count,
        backoff(key + ".redeliveryBackoff", map.get("redeliveryBackoff")));
  }

  /** A mapping of exactly baseSeconds and maxSeconds, whole numbers; null when absent. */
  private static QueueDefinition.Backoff backoff(String key, Object node) {
    if (node == null) {
      return null;
    }
    String expected = "a mapping {baseSeconds: n, maxSeconds: m} of whole seconds";
    if (!(node instanceof Map<?, ?> map) || !Set.of("baseSeconds", "maxSeconds").equals(stringKeys(map).keySet())) {
      throw invalid(key, expected);
    }
    if (!(map.get("baseSeconds") instanceof Integer base) || !(map.get("maxSeconds") instanceof Integer max)) {
      throw invalid(key, expected);
    }
    return new QueueDefinition.Backoff(base, max);
  }

  /** Where a predefined queue or topic lives. */
  record Place(String accountId, String region) {}

  /** An entry's accountId and region: the defaults unless it names others (a region the server serves). */
  static Place place(String key, Map<?, ?> map, SqsConfig sqs) {
    return place(key, map, sqs, "accountId", "region");
  }

  /** As {@link #place(String, Map, SqsConfig)}, the account and region under the fields named. */
  static Place place(String key, Map<?, ?> map, SqsConfig sqs, String accountField, String regionField) {
    Object account = map.get(accountField);
    String accountId = account == null ? sqs.accountId() : String.valueOf(account);
    if (!accountId.matches("\\d{12}")) {
      throw invalid(key + "." + accountField, "a 12-digit account id, quoted so that YAML keeps it a string");
    }
    Object region = map.get(regionField);
    if (region != null && !sqs.servesRegionNamed(String.valueOf(region))) {
      throw invalid(key + "." + regionField, "a region this server serves (sqs.regions)");
    }
    return new Place(accountId, region == null ? sqs.region() : String.valueOf(region));
  }

  /** Scalars become their text; a mapping (a RedrivePolicy written as YAML) becomes its JSON. */
  static Map<String, String> strings(String key, Object node) {
    if (node == null) {
      return Map.of();
    }
    if (!(node instanceof Map<?, ?> map)) {
      throw invalid(key, "a mapping of names to values");
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : map.entrySet()) {
      Object v = e.getValue();
      if (v instanceof Map<?, ?> m) {
        out.put(String.valueOf(e.getKey()), new JsonObject(stringKeys(m)).encode());
      } else if (v == null || v instanceof List<?>) {
        throw invalid(key + "." + e.getKey(), "a single value");
      } else {
        out.put(String.valueOf(e.getKey()), String.valueOf(v));
      }
    }
    return out;
  }

  static Map<String, Object> stringKeys(Map<?, ?> m) {
    Map<String, Object> out = new LinkedHashMap<>();
    m.forEach((k, v) -> out.put(String.valueOf(k), v));
    return out;
  }

  static ConfigException invalid(String key, String expected) {
    return new ConfigException("Invalid value for configuration key '" + key + "': expected " + expected);
  }
}
