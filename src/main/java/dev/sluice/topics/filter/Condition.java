package dev.sluice.topics.filter;

import java.util.List;

/** A compiled policy: keys ANDed, {@code $or} branches ORed, each key's matchers ORed. */
sealed interface Condition {

  /** The values a message holds at a key (a dotted path in body scope), or null when it has none. */
  interface Values {
    List<Object> at(String path);
  }

  boolean matches(Values message);

  record AllOf(List<Condition> parts) implements Condition {
    @Override
    public boolean matches(Values message) {
      for (Condition c : parts) {
        if (!c.matches(message)) {
          return false;
        }
      }
      return true;
    }
  }

  record AnyOf(List<Condition> branches) implements Condition {
    @Override
    public boolean matches(Values message) {
      for (Condition c : branches) {
        if (c.matches(message)) {
          return true;
        }
      }
      return false;
    }
  }

  record Key(String path, List<ValueMatcher> matchers) implements Condition {
    @Override
    public boolean matches(Values message) {
      List<Object> values = message.at(path);
      boolean present = values != null;
      List<Object> held = present ? values : List.of();
      for (ValueMatcher m : matchers) {
        if (m.matches(present, held)) {
          return true;
        }
      }
      return false;
    }
  }
}
