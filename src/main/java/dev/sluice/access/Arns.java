package dev.sluice.access;

/**
 * ARNs ({@code arn:partition:service:region:account:resource}) and ARN patterns as the Resource
 * element and the Arn* condition operators read them: compared component by component, each
 * component with its own wildcards, case-sensitively (IAM User Guide: Condition operators, ARN
 * condition operators). Stateless.
 */
public final class Arns {
  private Arns() {}

  private static final int PARTS = 6;

  /** Whether {@code s} is {@code *} or has an ARN's six components (wildcards allowed in each). */
  static boolean isPattern(String s) {
    if (s.equals("*")) {
      return true;
    }
    String[] parts = s.split(":", PARTS);
    return parts.length == PARTS && parts[0].equals("arn");
  }

  /** Whether {@code arn} matches {@code pattern}; {@code *} alone matches any ARN. */
  static boolean matches(String pattern, String arn) {
    if (pattern.equals("*")) {
      return true;
    }
    String[] p = pattern.split(":", PARTS);
    String[] a = arn.split(":", PARTS);
    if (p.length != PARTS || a.length != PARTS) {
      return false;
    }
    for (int i = 0; i < PARTS; i++) {
      if (!Wildcard.matches(p[i], a[i])) {
        return false;
      }
    }
    return true;
  }

  /** The account component of an ARN, or null when {@code arn} is not one. */
  public static String accountOf(String arn) {
    String[] a = arn == null ? new String[0] : arn.split(":", PARTS);
    return a.length == PARTS && a[0].equals("arn") ? a[4] : null;
  }

  /** The root principal of an account, the form AWS writes an account id in a policy as. */
  public static String rootOf(String accountId) {
    return "arn:aws:iam::" + accountId + ":root";
  }
}
