package dev.sluice.topics.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.model.JsonText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The two ways a message reaches a policy must agree: a flat policy decides the same for a message
 * carried as attributes (String, Number, String.Array) as for the same values in a JSON body, since
 * both read values of the same kinds. Random policies and messages over a small vocabulary, so
 * matches and misses both occur; the seed is in the failure message.
 */
class ScopeAgreementTest {
  static final String[] KEYS = {"a", "b", "c"};
  static final String[] WORDS = {"red", "reddish", "Red", "blue", "10.0.0.1", "10.1.0.1"};
  static final int[] NUMBERS = {-5, 0, 3, 100, 150};

  @Test
  void attributesAndBodyAgree() {
    long seed = System.nanoTime();
    Random r = new Random(seed);
    int matched = 0;
    for (int i = 0; i < 3000; i++) {
      String policyJson = JsonText.write(policy(r));
      FilterPolicy onAttributes = FilterPolicy.parse(policyJson, FilterPolicyScope.MESSAGE_ATTRIBUTES);
      FilterPolicy onBody = FilterPolicy.parse(policyJson, FilterPolicyScope.MESSAGE_BODY);
      Map<String, FilterAttribute> attributes = new LinkedHashMap<>();
      Map<String, Object> body = new LinkedHashMap<>();
      for (String key : KEYS) {
        if (r.nextInt(4) > 0) {
          message(r, key, attributes, body);
        }
      }
      boolean a = onAttributes.matches(attributes);
      boolean b = onBody.matchesBody(JsonText.write(body));
      assertEquals(a, b, "seed " + seed + ": " + policyJson + " on " + attributes + " vs " + body);
      matched += a ? 1 : 0;
    }
    // Both outcomes must be exercised, or agreement says nothing.
    assertEquals(true, matched > 100 && matched < 2900, "seed " + seed + ": " + matched + " matches of 3000");
  }

  static Map<String, Object> policy(Random r) {
    Map<String, Object> p = new LinkedHashMap<>();
    for (String key : KEYS) {
      if (r.nextBoolean()) {
        List<Object> rules = new ArrayList<>();
        int n = 1 + r.nextInt(2);
        for (int i = 0; i < n; i++) {
          rules.add(rule(r));
        }
        p.put(key, rules);
      }
    }
    return p;
  }

  static Object rule(Random r) {
    String w = WORDS[r.nextInt(WORDS.length)];
    int n = NUMBERS[r.nextInt(NUMBERS.length)];
    return switch (r.nextInt(11)) {
      case 0 -> w;
      case 1 -> n;
      case 2 -> Map.of("prefix", w.substring(0, 2));
      case 3 -> Map.of("suffix", w.substring(w.length() - 2));
      case 4 -> Map.of("equals-ignore-case", w);
      case 5 -> Map.of("anything-but", r.nextBoolean() ? List.of(w) : List.of(n));
      case 6 -> Map.of("anything-but", Map.of("prefix", w.substring(0, 3)));
      case 7 -> Map.of("numeric", List.of(">", n));
      case 8 -> Map.of("numeric", List.of(">=", n, "<", n + 50));
      case 9 -> Map.of("exists", r.nextBoolean());
      default -> Map.of("cidr", "10.0.0.0/" + (8 + r.nextInt(17)));
    };
  }

  /** One key's value, as an attribute and as the body's property. */
  static void message(Random r, String key, Map<String, FilterAttribute> attributes, Map<String, Object> body) {
    switch (r.nextInt(3)) {
      case 0 -> {
        String w = WORDS[r.nextInt(WORDS.length)];
        attributes.put(key, FilterAttribute.string(w));
        body.put(key, w);
      }
      case 1 -> {
        int n = NUMBERS[r.nextInt(NUMBERS.length)];
        // Written as a decimal in the attribute, so equality must be numeric, not textual.
        attributes.put(key, FilterAttribute.number(n + ".0"));
        body.put(key, n);
      }
      default -> {
        List<Object> elements = new ArrayList<>();
        for (int i = r.nextInt(3); i >= 0; i--) {
          elements.add(r.nextBoolean() ? WORDS[r.nextInt(WORDS.length)] : NUMBERS[r.nextInt(NUMBERS.length)]);
        }
        attributes.put(key, FilterAttribute.stringArray(JsonText.write(elements)));
        body.put(key, elements);
      }
    }
  }
}
