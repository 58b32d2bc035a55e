package dev.sluice.access;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One test of a statement's Condition: an operator, a key and the values it compares with (IAM
 * User Guide: Condition operators). Sluice evaluates the keys that fan-out and triggers rely on,
 * {@code aws:SourceArn} and {@code aws:SourceAccount}, with the String and Arn operators, their
 * negations and their {@code IfExists} and {@code ForAnyValue:} forms. Any other key or operator
 * is refused when the policy is set: a condition silently ignored would grant or deny what its
 * author did not mean. Immutable.
 */
final class ConditionClause {
  private static final List<String> OPERATORS = List.of(
      "StringEquals", "StringNotEquals", "StringLike", "StringNotLike",
      "ArnEquals", "ArnNotEquals", "ArnLike", "ArnNotLike");
  private static final String FOR_ANY = "ForAnyValue:";
  private static final String IF_EXISTS = "IfExists";

  private final boolean arn;
  private final boolean like;
  private final boolean negated;
  private final boolean ifExists;
  private final boolean forAnyValue;
  private final boolean sourceArn;
  private final List<String> values;

  private ConditionClause(String base, boolean ifExists, boolean forAnyValue, boolean sourceArn, List<String> values) {
    this.arn = base.startsWith("Arn");
    // ArnEquals takes wildcards in each component just as ArnLike does (Condition operators, ARN).
    this.like = arn || base.endsWith("Like");
    this.negated = base.contains("Not");
    this.ifExists = ifExists;
    this.forAnyValue = forAnyValue;
    this.sourceArn = sourceArn;
    this.values = values;
  }

  /** Every test of a Condition element, in order; each must hold for the statement to apply. */
  static List<ConditionClause> parseAll(Object condition, String where) {
    List<ConditionClause> out = new ArrayList<>();
    for (Map.Entry<String, Object> op : PolicyValues.object(condition, where).entrySet()) {
      String operator = op.getKey();
      String w = where + "." + operator;
      boolean forAny = operator.startsWith(FOR_ANY);
      String rest = forAny ? operator.substring(FOR_ANY.length()) : operator;
      boolean ifExists = rest.endsWith(IF_EXISTS);
      String base = ifExists ? rest.substring(0, rest.length() - IF_EXISTS.length()) : rest;
      if (!OPERATORS.contains(base)) {
        throw PolicyException.unsupported(w + ": condition operator " + PolicyValues.show(operator)
            + " is not supported (String[Not]Equals, String[Not]Like, Arn[Not]Equals, Arn[Not]Like, with IfExists"
            + " or ForAnyValue:)");
      }
      Map<String, Object> keys = PolicyValues.object(op.getValue(), w);
      if (keys.isEmpty()) {
        throw PolicyException.invalid(w + " tests no condition key");
      }
      for (Map.Entry<String, Object> k : keys.entrySet()) {
        out.add(new ConditionClause(base, ifExists, forAny, isSourceArn(k.getKey(), w),
            PolicyValues.strings(k.getValue(), w + "." + k.getKey())));
      }
    }
    return out;
  }

  /** Condition keys are case-insensitive (IAM User Guide: Condition element). */
  private static boolean isSourceArn(String key, String where) {
    return switch (key.toLowerCase(Locale.ROOT)) {
      case "aws:sourcearn" -> true;
      case "aws:sourceaccount" -> false;
      default -> throw PolicyException.unsupported(where + ": condition key " + PolicyValues.show(key)
          + " is not supported (aws:SourceArn, aws:SourceAccount)");
    };
  }

  /**
   * Whether the test holds for this request. An absent key satisfies IfExists and the negated
   * operators, and nothing else; ForAnyValue over an absent key has no value to satisfy it.
   */
  boolean holds(RequestContext context) {
    String actual = sourceArn ? context.sourceArn() : context.sourceAccount();
    if (actual == null) {
      return ifExists || (negated && !forAnyValue);
    }
    boolean any = values.stream().anyMatch(v -> compare(v, actual));
    return negated != any;
  }

  private boolean compare(String expected, String actual) {
    if (arn) {
      return Arns.matches(expected, actual);
    }
    return like ? Wildcard.matches(expected, actual) : expected.equals(actual);
  }
}
