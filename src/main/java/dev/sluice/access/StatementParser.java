package dev.sluice.access;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads one policy statement and checks its grammar (IAM User Guide: IAM JSON policy element
 * reference): only the known elements, an Effect, one of Action/NotAction and Resource/NotResource,
 * and in a queue policy one of Principal/NotPrincipal, which an identity policy must not have.
 * Stateless.
 */
final class StatementParser {
  private StatementParser() {}

  private static final Set<String> ELEMENTS = Set.of(
      "Sid", "Effect", "Principal", "NotPrincipal", "Action", "NotAction", "Resource", "NotResource", "Condition");

  static PolicyStatement parse(Object raw, String where, boolean queuePolicy) {
    Map<String, Object> s = PolicyValues.object(raw, where);
    for (String element : s.keySet()) {
      if (!ELEMENTS.contains(element)) {
        throw PolicyException.invalid(where + ": unknown element " + PolicyValues.show(element));
      }
    }
    Object sid = s.get("Sid");
    if (sid != null && !(sid instanceof String)) {
      throw PolicyException.invalid(where + ": Sid must be a string");
    }
    Effect effect = Effect.parse(s.get("Effect"), where);
    Principals principals = null;
    boolean notPrincipal = s.containsKey("NotPrincipal");
    if (queuePolicy) {
      String name = oneOf(s, "Principal", "NotPrincipal", where);
      principals = Principals.parse(s.get(name), where + "." + name);
    } else if (s.containsKey("Principal") || notPrincipal) {
      throw PolicyException.invalid(where + ": a credential's permissions name no Principal (the credential is it)");
    }
    String actionElement = oneOf(s, "Action", "NotAction", where);
    List<ActionPattern> actions = PolicyValues.strings(s.get(actionElement), where + "." + actionElement).stream()
        .map(a -> ActionPattern.parse(a, where + "." + actionElement)).toList();
    String resourceElement = oneOf(s, "Resource", "NotResource", where);
    List<String> resources = PolicyValues.strings(s.get(resourceElement), where + "." + resourceElement);
    for (String r : resources) {
      if (!Arns.isPattern(r)) {
        throw PolicyException.invalid(where + "." + resourceElement + ": " + PolicyValues.show(r)
            + " is neither \"*\" nor an ARN");
      }
    }
    List<ConditionClause> conditions = s.containsKey("Condition")
        ? ConditionClause.parseAll(s.get("Condition"), where + ".Condition") : List.of();
    return new PolicyStatement((String) sid, effect, principals, notPrincipal, actions,
        actionElement.startsWith("Not"), resources, resourceElement.startsWith("Not"), conditions);
  }

  /** The one of two exclusive elements the statement has; a statement with both or neither is refused. */
  private static String oneOf(Map<String, Object> s, String element, String notElement, String where) {
    boolean has = s.containsKey(element);
    if (has == s.containsKey(notElement)) {
      throw PolicyException.invalid(where + ": needs exactly one of " + element + " and " + notElement);
    }
    return has ? element : notElement;
  }
}
