package dev.sluice.protocol;

import java.util.Set;
import java.util.TreeSet;

/**
 * The indexes of a flattened Query list (the AWS query protocol: {@code Name.N}, {@code
 * Name.member.N}, {@code Name.entry.N}, 1-based), as both Query readers, SQS's and SNS's, find them.
 * Stateless.
 */
public final class FlattenedIndexes {
  private FlattenedIndexes() {}

  /** The N of every key named {@code head}N or {@code head}N.…, in ascending order. */
  public static TreeSet<Integer> of(Set<String> keys, String head) {
    TreeSet<Integer> out = new TreeSet<>();
    for (String key : keys) {
      if (key.startsWith(head)) {
        int end = key.indexOf('.', head.length());
        int n = index(key, head.length(), end < 0 ? key.length() : end);
        if (n > 0) {
          out.add(n);
        }
      }
    }
    return out;
  }

  /** The positive decimal number {@code key[from, to)} names, or 0 when it names none. */
  private static int index(String key, int from, int to) {
    if (to <= from || to - from > 9) {
      return 0;
    }
    for (int i = from; i < to; i++) {
      char c = key.charAt(i);
      if (c < '0' || c > '9') {
        return 0;
      }
    }
    return Integer.parseInt(key, from, to, 10);
  }
}
