package dev.sluice.access;

import java.util.Locale;

/**
 * One value of a statement's Action or NotAction: {@code *}, or {@code sqs:} followed by an action
 * name or a pattern with {@code *} and {@code ?}. Service prefix and action name are
 * case-insensitive, so {@code SQS:SendMessage} (as AddPermission writes it) and {@code sqs:send*}
 * mean what they say (IAM User Guide: IAM JSON policy elements: Action). Immutable.
 */
final class ActionPattern {
  private static final String PREFIX = "sqs:";

  /** Lower case, without the prefix; {@code *} for the bare wildcard. */
  private final String pattern;

  private ActionPattern(String pattern) {
    this.pattern = pattern;
  }

  static ActionPattern parse(String text, String where) {
    if (text.equals("*")) {
      return new ActionPattern("*");
    }
    String lower = text.toLowerCase(Locale.ROOT);
    if (!lower.startsWith(PREFIX)) {
      throw PolicyException.invalid(where + ": " + PolicyValues.show(text) + " is not an SQS action (sqs:<action>)");
    }
    String name = lower.substring(PREFIX.length());
    boolean wellFormed = !name.isEmpty()
        && name.chars().allMatch(c -> (c >= 'a' && c <= 'z') || c == '*' || c == '?');
    if (!wellFormed || (!Wildcard.hasWildcard(name) && !IamActions.isNameable(name))) {
      // A misspelt action would grant nothing and deny nothing without a word: refuse it.
      throw PolicyException.invalid(where + ": " + PolicyValues.show(text) + " names no SQS action");
    }
    return new ActionPattern(name);
  }

  /** Whether this pattern covers the IAM action {@code action} (e.g. {@code SendMessage}). */
  boolean matches(String action) {
    return Wildcard.matches(pattern, action.toLowerCase(Locale.ROOT));
  }
}
