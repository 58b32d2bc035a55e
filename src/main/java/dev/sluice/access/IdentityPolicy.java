package dev.sluice.access;

import java.util.List;
import java.util.Map;

/**
 * The permissions a credential is configured with: IAM-style statements with Effect, Action and
 * Resource, and optionally a Condition, but no Principal (the credential is the principal). Given
 * as a list of statements, one statement, or a whole document with {@code Statement}. A credential
 * with none listed has {@link #FULL_ACCESS}, as an account's root has. Immutable.
 */
public final class IdentityPolicy {
  /** No permissions listed: every SQS action on every queue, as an account root. */
  public static final IdentityPolicy FULL_ACCESS = new IdentityPolicy(
      PolicyDocument.statements(Map.of("Effect", "Allow", "Action", "sqs:*", "Resource", "*"), false));

  /** A service principal's: it acts only where a queue policy lets it. */
  static final IdentityPolicy NONE = new IdentityPolicy(new PolicyDocument(List.of()));

  private final PolicyDocument document;

  private IdentityPolicy(PolicyDocument document) {
    this.document = document;
  }

  /**
   * Reads configured permissions from a parsed YAML or JSON tree. An empty list grants nothing
   * (the credential then reaches only queues whose policy names it). Throws {@link PolicyException}
   * with a message naming the statement and element at fault.
   */
  public static IdentityPolicy parse(Object tree) {
    if (tree instanceof Map<?, ?> m && m.containsKey("Statement")) {
      return new IdentityPolicy(PolicyDocument.parse(PolicyValues.object(m, "permissions"), false));
    }
    if (tree == null) {
      throw PolicyException.invalid("permissions must be statements, not null");
    }
    return new IdentityPolicy(PolicyDocument.statements(tree, false));
  }

  List<PolicyStatement> statements() {
    return document.statements();
  }
}
