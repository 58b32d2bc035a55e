package dev.sluice.access;

/**
 * The wildcards of the IAM policy language: {@code *} matches any run of characters (none
 * included), {@code ?} exactly one. Used by actions, resources and the *Like condition operators
 * (IAM User Guide: IAM JSON policy elements: Action, Resource; Condition operators). Stateless.
 */
final class Wildcard {
  private Wildcard() {}

  /** Whether {@code text} matches {@code pattern}; case-sensitive, as ARNs and StringLike are. */
  static boolean matches(String pattern, String text) {
    // Greedy scan with one backtrack point (the last '*'): linear in practice, never exponential.
    int p = 0;
    int t = 0;
    int star = -1;
    int afterStar = 0;
    while (t < text.length()) {
      if (p < pattern.length() && (pattern.charAt(p) == '?' || pattern.charAt(p) == text.charAt(t))) {
        p++;
        t++;
      } else if (p < pattern.length() && pattern.charAt(p) == '*') {
        star = p++;
        afterStar = t;
      } else if (star >= 0) {
        p = star + 1;
        t = ++afterStar;
      } else {
        return false;
      }
    }
    while (p < pattern.length() && pattern.charAt(p) == '*') {
      p++;
    }
    return p == pattern.length();
  }

  static boolean hasWildcard(String s) {
    return s.indexOf('*') >= 0 || s.indexOf('?') >= 0;
  }
}
