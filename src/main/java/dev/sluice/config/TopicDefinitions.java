package dev.sluice.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Reads the {@code topics:} list, from the file or from SLUICE_TOPICS (JSON, which is YAML too), as
 * {@link QueueDefinitions} reads queues: the shape is checked here, naming the offending key; the
 * attribute values by the engine, exactly as CreateTopic and Subscribe requests would be.
 */
final class TopicDefinitions {
  private static final Set<String> FIELDS = Set.of("name", "accountId", "region", "attributes", "tags",
      "subscriptions");
  private static final Set<String> SUBSCRIPTION_FIELDS = Set.of("queue", "attributes");

  private TopicDefinitions() {}

  static List<TopicDefinition> parse(String text, SqsConfig sqs) {
    Object root;
    try {
      root = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
    } catch (RuntimeException e) {
      throw QueueDefinitions.invalid("topics", "a list of topics (" + ConfigKey.TOPICS.envVar() + " holds it as JSON): "
          + e.getMessage());
    }
    if (root == null) {
      return List.of();
    }
    if (!(root instanceof List<?> list)) {
      throw QueueDefinitions.invalid("topics", "a list of topics");
    }
    List<TopicDefinition> out = new ArrayList<>();
    Set<List<String>> topics = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      TopicDefinition t = definition("topics[" + i + "]", list.get(i), sqs);
      if (!topics.add(List.of(t.accountId(), t.region(), t.name()))) {
        throw QueueDefinitions.invalid(t.key() + ".name", "a name not used by an earlier topic of its account and"
            + " region; '" + t.name() + "' is defined twice");
      }
      out.add(t);
    }
    return List.copyOf(out);
  }

  private static TopicDefinition definition(String key, Object node, SqsConfig sqs) {
    if (!(node instanceof Map<?, ?> map)) {
      throw QueueDefinitions.invalid(key, "a mapping with name, and optionally accountId, region, attributes, tags,"
          + " subscriptions");
    }
    checkFields(key, map, FIELDS, "a topic");
    if (!(map.get("name") instanceof String name) || name.isBlank()) {
      throw QueueDefinitions.invalid(key + ".name", "the topic's name");
    }
    QueueDefinitions.Place place = QueueDefinitions.place(key, map, sqs);
    List<TopicDefinition.Subscription> subscriptions = new ArrayList<>();
    Object subs = map.get("subscriptions");
    if (subs != null) {
      if (!(subs instanceof List<?> items)) {
        throw QueueDefinitions.invalid(key + ".subscriptions", "a list of subscriptions");
      }
      for (int i = 0; i < items.size(); i++) {
        String subKey = key + ".subscriptions[" + i + "]";
        if (!(items.get(i) instanceof Map<?, ?> sub)) {
          throw QueueDefinitions.invalid(subKey, "a mapping with queue, and optionally attributes");
        }
        checkFields(subKey, sub, SUBSCRIPTION_FIELDS, "a subscription");
        if (!(sub.get("queue") instanceof String queue) || queue.isBlank()) {
          throw QueueDefinitions.invalid(subKey + ".queue", "the name of a queue of the topic's account and region");
        }
        subscriptions.add(new TopicDefinition.Subscription(subKey, queue,
            QueueDefinitions.strings(subKey + ".attributes", sub.get("attributes"))));
      }
    }
    return new TopicDefinition(key, place.accountId(), place.region(), name,
        QueueDefinitions.strings(key + ".attributes", map.get("attributes")),
        QueueDefinitions.strings(key + ".tags", map.get("tags")), List.copyOf(subscriptions));
  }

  private static void checkFields(String key, Map<?, ?> map, Set<String> fields, String what) {
    for (Object field : map.keySet()) {
      if (!fields.contains(String.valueOf(field))) {
        throw new ConfigException("Unknown configuration key '" + key + "." + field + "'; " + what + " takes " + fields);
      }
    }
  }
}
