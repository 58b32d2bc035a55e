package dev.sluice.persistence;

/**
 * A queue's received frontier: the highest place in delivery order of any message it ever
 * delivered, ({@code major}, {@code minor}) = (first_visible_at or FIFO sequence number, message
 * key). Every received row is at or below it, so a start-up that loads the rows up to it finds
 * every message in flight.
 */
public record Frontier(long queueId, long major, long minor) implements Comparable<Frontier> {
  @Override
  public int compareTo(Frontier o) {
    int c = Long.compare(major, o.major);
    return c != 0 ? c : Long.compare(minor, o.minor);
  }
}
