package dev.sluice.access;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A parsed policy: its statements, in order (order never changes a decision). Built by
 * {@link QueuePolicy} for a queue's Policy attribute and by {@link IdentityPolicy} for a
 * credential's permissions. Immutable.
 */
public final class PolicyDocument {
  /** The two policy language versions AWS knows (IAM User Guide: Version element). */
  private static final Set<String> VERSIONS = Set.of("2012-10-17", "2008-10-17");
  private static final Set<String> ELEMENTS = Set.of("Version", "Id", "Statement");

  private final List<PolicyStatement> statements;

  PolicyDocument(List<PolicyStatement> statements) {
    this.statements = List.copyOf(statements);
  }

  public List<PolicyStatement> statements() {
    return statements;
  }

  /**
   * Reads a document ({@code Version}, {@code Id}, {@code Statement}: one statement object or a
   * list of them). A document without statements is accepted and grants nothing: Sluice has always
   * stored {@code {"Version":"2012-10-17","Statement":[]}}, though AWS may refuse it (a policy
   * emptied by hand answered "Invalid value for the parameter Policy." in cloud-custodian#1816).
   */
  static PolicyDocument parse(Map<String, Object> json, boolean queuePolicy) {
    for (String element : json.keySet()) {
      if (!ELEMENTS.contains(element)) {
        throw PolicyException.invalid("unknown policy element " + PolicyValues.show(element)
            + " (Version, Id, Statement)");
      }
    }
    Object version = json.get("Version");
    if (version != null && !VERSIONS.contains(version)) {
      throw PolicyException.invalid(
          "Version must be \"2012-10-17\" or \"2008-10-17\", not " + PolicyValues.show(version));
    }
    Object id = json.get("Id");
    if (id != null && !(id instanceof String)) {
      throw PolicyException.invalid("Id must be a string");
    }
    return statements(json.get("Statement"), queuePolicy);
  }

  /** One statement object or a list of them, each checked with where it stands for the message. */
  static PolicyDocument statements(Object raw, boolean queuePolicy) {
    List<?> items = raw == null ? List.of() : raw instanceof List<?> l ? l : List.of(raw);
    List<PolicyStatement> out = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      out.add(StatementParser.parse(items.get(i), "Statement " + (i + 1), queuePolicy));
    }
    return new PolicyDocument(out);
  }
}
