package dev.sluice.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ShardAssignmentTest {

  @Test
  void fromNothingEveryShardHasOneMemberAndLoadsDifferByAtMostOne() {
    Random random = new Random(1);
    for (int shards : new int[] {1, 2, 7, 64, 100, 256}) {
      for (int n = 1; n <= 12; n++) {
        List<String> members = members(random, n);
        assertBalanced(shards, members, ShardAssignment.assign(shards, members));
      }
    }
  }

  /** Every node computes the same owners from the same members, however it learnt them. */
  @Test
  void theAnswerDependsOnlyOnTheSetOfMembers() {
    Random random = new Random(2);
    for (int seed = 0; seed < 50; seed++) {
      List<String> members = members(random, 1 + random.nextInt(8));
      String[] current = randomOwners(random, 64, members);
      String[] expected = ShardAssignment.rebalance(current, members);
      List<String> shuffled = new ArrayList<>(members);
      shuffled.addAll(members.subList(0, 1)); // a duplicate counts once
      Collections.shuffle(shuffled, random);
      assertArrayEquals(expected, ShardAssignment.rebalance(current.clone(), shuffled));
    }
  }

  /**
   * Nodes of two versions must agree during a rolling upgrade: the hash and the rule are part of
   * the cluster's protocol, pinned here.
   */
  @Test
  void theAssignmentOfAKnownClusterIsPinned() {
    assertEquals(List.of("node-c", "node-a", "node-b", "node-c", "node-a", "node-b", "node-a", "node-c", "node-a",
        "node-b", "node-c", "node-b"), List.of(ShardAssignment.assign(12, List.of("node-a", "node-b", "node-c"))));
  }

  @Test
  void withoutMembersNoShardHasAnOwner() {
    for (String owner : ShardAssignment.assign(8, List.of())) {
      assertNull(owner);
    }
    assertThrows(IllegalArgumentException.class, () -> ShardAssignment.assign(0, List.of("a")));
  }

  /**
   * A join moves exactly the newcomer's share to it, a leave exactly the leaver's shards, and a
   * balanced cluster of live members is left as it is.
   */
  @Test
  void aJoinOrALeaveMovesOnlyTheShardsThatMustMove() {
    Random random = new Random(3);
    for (int seed = 0; seed < 500; seed++) {
      int shards = random.nextBoolean() ? 64 : 1 + random.nextInt(256);
      List<String> members = members(random, 1 + random.nextInt(9));
      String[] before = ShardAssignment.rebalance(randomOwners(random, shards, members), members);
      assertArrayEquals(before, ShardAssignment.rebalance(before, members), "a balanced cluster stays as it is");

      List<String> joined = new ArrayList<>(members);
      String newcomer = members(random, 1).get(0);
      joined.add(newcomer);
      String[] afterJoin = ShardAssignment.rebalance(before, joined);
      assertBalanced(shards, joined, afterJoin);
      for (int s = 0; s < shards; s++) {
        assertTrue(before[s].equals(afterJoin[s]) || afterJoin[s].equals(newcomer), "shard " + s + " moved elsewhere");
      }

      if (members.size() > 1) {
        String leaver = members.get(random.nextInt(members.size()));
        List<String> left = new ArrayList<>(members);
        left.remove(leaver);
        String[] afterLeave = ShardAssignment.rebalance(before, left);
        assertBalanced(shards, left, afterLeave);
        for (int s = 0; s < shards; s++) {
          assertTrue(before[s].equals(afterLeave[s]) || before[s].equals(leaver), "shard " + s + " moved needlessly");
        }
      }
    }
  }

  /**
   * From any state (owners gone, shards without owners, loads far apart), the answer is balanced,
   * is its own answer again, and moves exactly the fewest shards that balance needs: those without
   * a live owner, and each member's excess over the share it can keep.
   */
  @Test
  void fromAnyStateTheAnswerIsBalancedStableAndMovesTheFewestShards() {
    Random random = new Random(4);
    for (int seed = 0; seed < 1_000; seed++) {
      int shards = 1 + random.nextInt(130);
      List<String> members = members(random, 1 + random.nextInt(10));
      List<String> everyone = new ArrayList<>(members);
      everyone.addAll(members(random, random.nextInt(4))); // some of them gone
      String[] current = randomOwners(random, shards, everyone);
      String[] next = ShardAssignment.rebalance(current, members);
      assertBalanced(shards, members, next);
      assertArrayEquals(next, ShardAssignment.rebalance(next, members));
      int moved = 0;
      for (int s = 0; s < shards; s++) {
        moved += next[s].equals(current[s]) ? 0 : 1;
      }
      assertEquals(fewestMoves(current, members), moved, "seed " + seed);
    }
  }

  /** Shards without a live owner, plus the excess of each member over its share, shares given to the fullest. */
  private static int fewestMoves(String[] current, List<String> members) {
    Map<String, Integer> load = new HashMap<>();
    int orphans = 0;
    for (String o : current) {
      if (o != null && members.contains(o)) {
        load.merge(o, 1, Integer::sum);
      } else {
        orphans++;
      }
    }
    List<Integer> loads = new ArrayList<>();
    members.forEach(m -> loads.add(load.getOrDefault(m, 0)));
    loads.sort(Collections.reverseOrder());
    int n = members.size();
    int excess = 0;
    for (int i = 0; i < n; i++) {
      excess += Math.max(0, loads.get(i) - (current.length / n + (i < current.length % n ? 1 : 0)));
    }
    return orphans + excess;
  }

  private static void assertBalanced(int shards, List<String> members, String[] owners) {
    assertEquals(shards, owners.length);
    Map<String, Integer> load = new HashMap<>();
    for (String o : owners) {
      assertTrue(members.contains(o), o + " is not a member");
      load.merge(o, 1, Integer::sum);
    }
    int n = members.size();
    for (String m : members) {
      int l = load.getOrDefault(m, 0);
      assertTrue(l >= shards / n && l <= (shards + n - 1) / n, shards + " shards, " + n + " members: " + load);
    }
  }

  /** Owners drawn from {@code from}, a few shards without one, loads uneven. */
  private static String[] randomOwners(Random random, int shards, List<String> from) {
    String[] owners = new String[shards];
    int favourite = random.nextInt(from.size());
    for (int s = 0; s < shards; s++) {
      int pick = random.nextInt(10);
      owners[s] = pick == 0 ? null : pick < 4 ? from.get(favourite) : from.get(random.nextInt(from.size()));
    }
    return owners;
  }

  private static List<String> members(Random random, int n) {
    List<String> out = new ArrayList<>();
    while (out.size() < n) {
      String id = new UUID(random.nextLong(), random.nextLong()).toString();
      if (!out.contains(id)) {
        out.add(id);
      }
    }
    return out;
  }
}
