package dev.sluice.cluster;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Which live member should own each virtual shard (design page cluster.md, §2.3). Pure and
 * deterministic: every node that sees the same owners and members computes the same answer,
 * whatever order it learnt them in. A node's own view decides nothing by itself: only a lease in
 * PostgreSQL makes an owner, so differing views can delay a move but never make two owners.
 *
 * <p>The answer starts from the current owners (the leases) and moves as few shards as balance
 * needs: loads end between ⌊shards / members⌋ and ⌈shards / members⌉, and the members that keep
 * the larger share are those holding most now. A shard moves only if its owner is gone, or its
 * owner holds more than its share and likes it least (rendezvous weight, a hash of member and
 * shard). Each shard that must move goes to the member with room that it ranks highest. So a
 * member joining takes its share and nothing else moves; a member leaving hands on its shards and
 * nothing else moves; a balanced assignment of live members is left as it is.
 */
public final class ShardAssignment {
  private ShardAssignment() {}

  /** From nothing: every shard placed by its rendezvous ranking, within the bounds. */
  public static String[] assign(int shards, Collection<String> members) {
    if (shards < 1) {
      throw new IllegalArgumentException("shards must be at least 1: " + shards);
    }
    return rebalance(new String[shards], members);
  }

  /**
   * The owners {@code current} should become with these live {@code members} (node ids;
   * duplicates count once). A null or departed owner counts as none. No members: every owner is
   * null.
   */
  public static String[] rebalance(String[] current, Collection<String> members) {
    int shards = current.length;
    String[] owners = new String[shards];
    List<String> live = new ArrayList<>(new TreeSet<>(members));
    int n = live.size();
    if (n == 0) {
      return owners;
    }
    Map<String, Integer> index = new HashMap<>();
    long[] memberHash = new long[n];
    for (int m = 0; m < n; m++) {
      index.put(live.get(m), m);
      memberHash[m] = hash(live.get(m));
    }
    int[] owner = new int[shards];
    int[] load = new int[n];
    for (int s = 0; s < shards; s++) {
      Integer m = current[s] == null ? null : index.get(current[s]);
      owner[s] = m == null ? -1 : m;
      if (m != null) {
        load[m]++;
      }
    }
    int[] target = targets(shards, load, memberHash);
    // Members above their share give up the shards they like least.
    for (int m = 0; m < n; m++) {
      while (load[m] > target[m]) {
        int least = -1;
        for (int s = 0; s < shards; s++) {
          if (owner[s] == m && (least < 0 || Long.compareUnsigned(weight(memberHash[m], s),
              weight(memberHash[m], least)) < 0)) {
            least = s;
          }
        }
        owner[least] = -1;
        load[m]--;
      }
    }
    // Every shard without an owner, in shard order, to the member with room it ranks highest.
    for (int s = 0; s < shards; s++) {
      if (owner[s] < 0) {
        int best = -1;
        for (int m = 0; m < n; m++) {
          if (load[m] < target[m] && (best < 0 || prefers(memberHash, s, m, best))) {
            best = m;
          }
        }
        owner[s] = best;
        load[best]++;
      }
    }
    for (int s = 0; s < shards; s++) {
      owners[s] = live.get(owner[s]);
    }
    return owners;
  }

  /**
   * Each member's share: ⌊shards / n⌋, plus one for the {@code shards mod n} members holding most
   * now (ties by member hash), so that the fewest shards move.
   */
  private static int[] targets(int shards, int[] load, long[] memberHash) {
    int n = load.length;
    Integer[] order = new Integer[n];
    for (int m = 0; m < n; m++) {
      order[m] = m;
    }
    Arrays.sort(order, Comparator.<Integer>comparingInt(m -> -load[m])
        .thenComparing((a, b) -> Long.compareUnsigned(memberHash[a], memberHash[b])));
    int[] target = new int[n];
    for (int i = 0; i < n; i++) {
      target[order[i]] = shards / n + (i < shards % n ? 1 : 0);
    }
    return target;
  }

  /** Whether shard {@code s} ranks member {@code a} above member {@code b}. */
  private static boolean prefers(long[] memberHash, int s, int a, int b) {
    int c = Long.compareUnsigned(weight(memberHash[a], s), weight(memberHash[b], s));
    return c > 0 || c == 0 && Long.compareUnsigned(memberHash[a], memberHash[b]) < 0;
  }

  /** The rendezvous weight of a member for a shard. */
  private static long weight(long memberHash, int shard) {
    return fmix64(memberHash ^ (shard + 1) * 0x9E3779B97F4A7C15L);
  }

  /** FNV-1a over the id's UTF-8 bytes, then the murmur3 finaliser: the same on every JVM. */
  static long hash(String member) {
    long h = 0xcbf29ce484222325L;
    for (byte b : member.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return fmix64(h);
  }

  private static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }
}
