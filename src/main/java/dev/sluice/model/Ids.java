package dev.sluice.model;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Random identifiers that need to be unique, not secret: message ids and request ids. Built from
 * ThreadLocalRandom because UUID.randomUUID() serialises every event loop on one SecureRandom.
 */
public final class Ids {
  private Ids() {}

  /** A version-4 UUID string, the form SQS message ids take. */
  public static String uuid() {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    long msb = (r.nextLong() & 0xffffffffffff0fffL) | 0x0000000000004000L;
    long lsb = (r.nextLong() & 0x3fffffffffffffffL) | 0x8000000000000000L;
    return new UUID(msb, lsb).toString();
  }
}
