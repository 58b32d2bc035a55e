package dev.sluice.config;

import dev.sluice.access.IdentityPolicy;
import dev.sluice.access.PolicyException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Reads the {@code credentials} key, in either of its forms: {@code KEYID:SECRET[,KEYID:SECRET...]},
 * credentials of the default account; or a list of mappings (in the environment, the same list as
 * JSON) with accessKeyId, secretAccessKey, and optionally accountId and permissions. Permission
 * statements are checked here for their shape, naming the element at fault, then read as the
 * access package reads policies (wildcards, conditions it understands), so that a typo or an
 * unsupported condition stops the start. A secret is never part of a message.
 */
final class CredentialDefinitions {
  private static final Set<String> FIELDS = Set.of("accessKeyId", "secretAccessKey", "accountId", "permissions");
  private static final Set<String> STATEMENT_FIELDS =
      Set.of("Sid", "Effect", "Action", "NotAction", "Resource", "NotResource", "Condition");

  private CredentialDefinitions() {}

  static List<Credential> parse(String text, String defaultAccountId) {
    if (text.startsWith("[")) {
      return structured(text, defaultAccountId);
    }
    List<Credential> out = new ArrayList<>();
    for (String pair : text.split(",")) {
      String p = pair.trim();
      int colon = p.indexOf(':');
      if (p.isEmpty()) {
        continue;
      }
      if (colon <= 0 || colon == p.length() - 1) {
        throw new ConfigException("Invalid value for configuration key '" + ConfigKey.CREDENTIALS.path() + "' ("
            + ConfigKey.CREDENTIALS.envVar() + "): expected KEYID:SECRET[,KEYID:SECRET...], or a list of"
            + " credentials (accessKeyId, secretAccessKey, accountId, permissions)");
      }
      out.add(new Credential(p.substring(0, colon), p.substring(colon + 1), defaultAccountId, IdentityPolicy.FULL_ACCESS));
    }
    return unique(out);
  }

  private static List<Credential> structured(String text, String defaultAccountId) {
    Object root;
    try {
      root = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
    } catch (RuntimeException e) {
      // The parser's message may quote the text, secrets included: it is not passed on.
      throw invalid("credentials", "a list of credentials (" + ConfigKey.CREDENTIALS.envVar() + " holds it as JSON)");
    }
    if (!(root instanceof List<?> list)) {
      throw invalid("credentials", "a list of credentials");
    }
    List<Credential> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      out.add(credential("credentials[" + i + "]", list.get(i), defaultAccountId));
    }
    return unique(out);
  }

  private static Credential credential(String key, Object node, String defaultAccountId) {
    if (!(node instanceof Map<?, ?> map)) {
      throw invalid(key, "a mapping with accessKeyId, secretAccessKey, and optionally accountId and permissions");
    }
    for (Object field : map.keySet()) {
      if (!FIELDS.contains(String.valueOf(field))) {
        throw new ConfigException(
            "Unknown configuration key '" + key + "." + field + "'; a credential takes " + FIELDS);
      }
    }
    if (!(map.get("accessKeyId") instanceof String keyId) || keyId.isBlank() || keyId.contains("/")) {
      throw invalid(key + ".accessKeyId", "an access key id (no '/')");
    }
    if (!(map.get("secretAccessKey") instanceof String secret) || secret.isEmpty()) {
      throw invalid(key + ".secretAccessKey", "the secret access key, as a string");
    }
    Object account = map.get("accountId");
    String accountId = account == null ? defaultAccountId : String.valueOf(account);
    if (!accountId.matches("\\d{12}")) {
      throw invalid(key + ".accountId", "a 12-digit account id, quoted so that YAML keeps it a string");
    }
    return new Credential(keyId, secret, accountId, permissions(key + ".permissions", map.get("permissions")));
  }

  /** None listed: full access. Listed (even as an empty list): exactly what they allow. */
  private static IdentityPolicy permissions(String key, Object node) {
    if (node == null) {
      return IdentityPolicy.FULL_ACCESS;
    }
    List<Map<String, Object>> statements = statements(key, node);
    try {
      return IdentityPolicy.parse(statements);
    } catch (PolicyException e) {
      throw invalid(key, "statements Sluice can evaluate: " + e.getMessage());
    }
  }

  private static List<Map<String, Object>> statements(String key, Object node) {
    if (!(node instanceof List<?> list)) {
      throw invalid(key, "a list of statements (Effect, Action, Resource)");
    }
    List<Map<String, Object>> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      out.add(statement(key + "[" + i + "]", list.get(i)));
    }
    return List.copyOf(out);
  }

  /** Effect Allow or Deny, one of Action or NotAction, one of Resource or NotResource; no other fields. */
  private static Map<String, Object> statement(String key, Object node) {
    if (!(node instanceof Map<?, ?> map)) {
      throw invalid(key, "a statement: a mapping with Effect, Action and Resource");
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : map.entrySet()) {
      String field = String.valueOf(e.getKey());
      if (!STATEMENT_FIELDS.contains(field)) {
        throw new ConfigException("Unknown configuration key '" + key + "." + field + "'; a statement takes "
            + STATEMENT_FIELDS);
      }
      out.put(field, frozen(e.getValue()));
    }
    if (!"Allow".equals(out.get("Effect")) && !"Deny".equals(out.get("Effect"))) {
      throw invalid(key + ".Effect", "Allow or Deny");
    }
    oneOf(key, out, "Action", "NotAction");
    oneOf(key, out, "Resource", "NotResource");
    if (out.containsKey("Sid") && !(out.get("Sid") instanceof String)) {
      throw invalid(key + ".Sid", "a string");
    }
    if (out.containsKey("Condition") && !(out.get("Condition") instanceof Map<?, ?>)) {
      throw invalid(key + ".Condition", "a mapping of condition operators");
    }
    return Collections.unmodifiableMap(out);
  }

  /** Exactly one of the two fields, a string or a non-empty list of strings. */
  private static void oneOf(String key, Map<String, Object> statement, String field, String negated) {
    if (statement.containsKey(field) == statement.containsKey(negated)) {
      throw invalid(key, "either " + field + " or " + negated);
    }
    String present = statement.containsKey(field) ? field : negated;
    Object value = statement.get(present);
    boolean strings = value instanceof String s ? !s.isEmpty()
        : value instanceof List<?> l && !l.isEmpty() && l.stream().allMatch(v -> v instanceof String s && !s.isEmpty());
    if (!strings) {
      throw invalid(key + "." + present, "a string or a list of strings");
    }
  }

  /** An unmodifiable copy of a parsed YAML value: configuration does not change after start. */
  private static Object frozen(Object value) {
    if (value instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, v) -> out.put(String.valueOf(k), frozen(v)));
      return Collections.unmodifiableMap(out);
    }
    if (value instanceof List<?> l) {
      return l.stream().map(CredentialDefinitions::frozen).toList();
    }
    return value;
  }

  private static List<Credential> unique(List<Credential> credentials) {
    Set<String> ids = new HashSet<>();
    for (Credential c : credentials) {
      if (!ids.add(c.accessKeyId())) {
        throw invalid("credentials", "each access key id once; " + c.accessKeyId() + " is given twice");
      }
    }
    return List.copyOf(credentials);
  }

  private static ConfigException invalid(String key, String expected) {
    return new ConfigException("Invalid value for configuration key '" + key + "' (" + ConfigKey.CREDENTIALS.envVar()
        + "): expected " + expected);
  }
}
