package dev.sluice.triggers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BatchResponseTest {
  static final List<String> IDS = List.of("a", "b", "c");

  @Test
  void everyRecordSucceedsWhenNoneIsReported() {
    for (String body : new String[] {"null", "{}", "{\"batchItemFailures\": []}", "{\"batchItemFailures\": null}",
        "{\"other\": 1}"}) {
      BatchResponse r = BatchResponse.read(body, IDS, false);
      assertTrue(r.allSucceeded(), body);
      assertEquals(IDS, r.deletable(IDS, null), body);
    }
    assertTrue(BatchResponse.read("", IDS, true).allSucceeded(), "an empty answer of a plain HTTP target");
    assertTrue(BatchResponse.read("", IDS, false).wholeBatchFailed(), "an empty answer of a Lambda runtime");
  }

  @Test
  void theReportedRecordsFailAndTheOthersAreDeleted() {
    BatchResponse r = BatchResponse.read("{\"batchItemFailures\": [{\"itemIdentifier\": \"b\"},"
        + " {\"itemIdentifier\": \"b\"}]}", IDS, false);
    assertEquals(Set.of("b"), r.failed());
    assertFalse(r.wholeBatchFailed());
    assertEquals(List.of("a", "c"), r.deletable(IDS, null));
  }

  @Test
  void anAnswerLambdaCannotReadFailsTheWholeBatch() {
    for (String body : new String[] {"not json", "[1]", "\"ok\"", "{\"batchItemFailures\": {}}",
        "{\"batchItemFailures\": [\"b\"]}", "{\"batchItemFailures\": [{\"foo\": \"notvalid\"}]}",
        "{\"batchItemFailures\": [{\"itemIdentifier\": \"\"}]}", "{\"batchItemFailures\": [{\"itemIdentifier\": 3}]}",
        "{\"batchItemFailures\": [{\"itemIdentifier\": \"z\"}]}", "{\"batchItemFailures\": [{\"itemIdentifier\": null}]}"}) {
      BatchResponse r = BatchResponse.read(body, IDS, true);
      assertTrue(r.wholeBatchFailed(), body);
      assertEquals(List.of(), r.deletable(IDS, null), body);
    }
  }

  @Test
  void onAFifoQueueAFailureKeepsTheRestOfItsGroup() {
    List<String> ids = List.of("a1", "b1", "a2", "b2", "a3");
    List<String> groups = List.of("A", "B", "A", "B", "A");
    BatchResponse r = BatchResponse.read("{\"batchItemFailures\": [{\"itemIdentifier\": \"a2\"}]}", ids, false);
    assertEquals(List.of("a1", "b1", "b2"), r.deletable(ids, groups));
  }

  /** Random batches against the rule stated plainly: a group's records are deleted up to its first failure. */
  @Test
  void fifoDeletesAreAlwaysAPrefixOfEachGroup() {
    Random random = new Random(18);
    for (int round = 0; round < 2_000; round++) {
      int n = 1 + random.nextInt(10);
      List<String> ids = new ArrayList<>();
      List<String> groups = new ArrayList<>();
      List<String> failures = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        ids.add("m" + i);
        groups.add("g" + random.nextInt(3));
        if (random.nextInt(4) == 0) {
          failures.add("{\"itemIdentifier\": \"m" + i + "\"}");
        }
      }
      List<String> deleted = BatchResponse.read("{\"batchItemFailures\": [" + String.join(",", failures) + "]}", ids,
          false).deletable(ids, groups);
      for (String group : Set.copyOf(groups)) {
        boolean failedBefore = false;
        for (int i = 0; i < n; i++) {
          if (!groups.get(i).equals(group)) {
            continue;
          }
          boolean failed = failures.contains("{\"itemIdentifier\": \"m" + i + "\"}");
          failedBefore |= failed;
          assertEquals(!failedBefore, deleted.contains(ids.get(i)), "round " + round + ": " + ids.get(i));
        }
      }
    }
  }
}
