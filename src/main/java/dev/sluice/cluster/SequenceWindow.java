package dev.sluice.cluster;

import java.util.Arrays;

/**
 * The sequence numbers seen from one sender, as a sliding window of {@link #WIDTH} bits below the
 * highest one: a number is new once, and one older than the window is refused, since whether it
 * was seen is no longer known. Numbers may arrive out of order within the window. Owned by
 * {@link FrameAuth}.
 */
final class SequenceWindow {
  static final int WIDTH = 1024;

  /** Bit {@code s mod WIDTH} is set when {@code s}, within the window, was seen. */
  private final long[] seen = new long[WIDTH / 64];
  private long highest = -1;

  /** Null when {@code sequence} is new (and now seen), else why it is refused. */
  String accept(long sequence) {
    if (sequence < 0) {
      return "a negative sequence number " + sequence;
    }
    if (sequence > highest) {
      slideTo(sequence);
    } else if (highest - sequence >= WIDTH) {
      return "sequence number " + sequence + " is older than the window (highest " + highest + ")";
    } else if ((seen[word(sequence)] & bit(sequence)) != 0) {
      return "sequence number " + sequence + " was seen before";
    }
    seen[word(sequence)] |= bit(sequence);
    return null;
  }

  /** Makes {@code sequence} the highest, forgetting the numbers that fall out of the window. */
  private void slideTo(long sequence) {
    if (sequence - highest >= WIDTH) {
      Arrays.fill(seen, 0);
    } else {
      for (long s = highest + 1; s <= sequence; s++) {
        seen[word(s)] &= ~bit(s);
      }
    }
    highest = sequence;
  }

  private static int word(long sequence) {
    return (int) (sequence % WIDTH) / 64;
  }

  /** A long shift takes its distance mod 64: the bit within the word. */
  private static long bit(long sequence) {
    return 1L << sequence;
  }
}
