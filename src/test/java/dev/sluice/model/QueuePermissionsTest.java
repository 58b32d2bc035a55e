package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** AddPermission and RemovePermission with AWS's validation, codes and texts. */
class QueuePermissionsTest {
  final ShardFixture shard = new ShardFixture();
  final QueueState q = shard.create("shared", Map.of());

  SqsException add(String label, List<String> accounts, List<String> actions) {
    return assertThrows(SqsException.class, () -> QueuePermissions.add(q, label, accounts, actions, shard.now));
  }

  @Test
  void anAccountGrantIsWrittenAsAwsWritesItAndCanBeEvaluated() {
    QueuePermissions.add(q, "send", List.of("111122223333"), List.of("SendMessage"), shard.now);
    QueuePermissions.add(q, "two", List.of("111122223333", "444455556666"), List.of("ReceiveMessage", "*"), shard.now);
    String policy = q.attributes().policy();
    assertTrue(policy.contains("\"Principal\":{\"AWS\":\"arn:aws:iam::111122223333:root\"},\"Action\":\"SQS:SendMessage\""),
        policy);
    assertTrue(policy.contains("\"AWS\":[\"arn:aws:iam::111122223333:root\",\"arn:aws:iam::444455556666:root\"]"), policy);
    assertEquals(2, q.attributes().policyDocument().statements().size());
    QueuePermissions.remove(q, "send", shard.now);
    QueuePermissions.remove(q, "two", shard.now);
    assertNull(q.attributes().policy());
    assertNull(q.attributes().policyDocument());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "*|Value [*] for parameter PrincipalId is invalid. Reason: Unable to verify.",
      "abc|Value [abc] for parameter PrincipalId is invalid. Reason: Unable to verify.",
      "12345|Value [12345] for parameter PrincipalId is invalid. Reason: Unable to verify.",
      "1111222233334|Value [1111222233334] for parameter PrincipalId is invalid. Reason: Unable to verify.",
      "arn:aws:iam::111122223333:user/x|Value [arn:aws:iam::111122223333:user/x] for parameter PrincipalId is"
          + " invalid. Reason: Unable to verify.",
      "arn:aws:iam::111122223333:root|Value [arn:aws:iam::111122223333:root] for parameter PrincipalId is"
          + " invalid. Reason: Unable to verify."})
  void onlyTwelveDigitAccountIdsCanBeVerified(String account, String message) {
    SqsException e = add("l", List.of(account), List.of("SendMessage"));
    assertEquals(ErrorCode.INVALID_PARAMETER_VALUE, e.code());
    assertEquals(message, e.getMessage());
    assertNull(q.attributes().policy(), "nothing was written");
  }

  @Test
  void theWholeListIsNamedWhenOneAccountCannotBeVerified() {
    assertEquals("Value [111122223333, *] for parameter PrincipalId is invalid. Reason: Unable to verify.",
        add("l", List.of("111122223333", "*"), List.of("SendMessage")).getMessage());
  }

  @Test
  void moreThanSevenActionsAreOverLimit() {
    List<String> eight = List.of("SendMessage", "ReceiveMessage", "DeleteMessage", "ChangeMessageVisibility",
        "GetQueueAttributes", "GetQueueUrl", "PurgeQueue", "ListDeadLetterSourceQueues");
    SqsException e = add("l", List.of("111122223333"), eight);
    assertEquals(ErrorCode.OVER_LIMIT, e.code());
    assertEquals("8 Actions were found, maximum allowed is 7.", e.getMessage());
    QueuePermissions.add(q, "seven", List.of("111122223333"), eight.subList(0, 7), shard.now);
  }

  @Test
  void aTakenLabelIsReportedBeforeTheAccounts() {
    QueuePermissions.add(q, "send", List.of("111122223333"), List.of("SendMessage"), shard.now);
    assertEquals("Value send for parameter Label is invalid. Reason: Already exists.",
        add("send", List.of("1"), List.of("SendMessage")).getMessage());
  }

  @Test
  void aTwentyFirstStatementIsOverLimit() {
    IntStream.range(0, 20).forEach(i ->
        QueuePermissions.add(q, "l" + i, List.of("111122223333"), List.of("SendMessage"), shard.now));
    SqsException e = add("l20", List.of("111122223333"), List.of("SendMessage"));
    assertEquals(ErrorCode.OVER_LIMIT, e.code());
    assertEquals("21 Statements were found, maximum allowed is 20.", e.getMessage());
  }

  @Test
  void aGrantThatWouldPassThePolicySizeIsOverLimit() {
    List<String> accounts = IntStream.range(0, 40).mapToObj(i -> String.valueOf(100000000000L + i)).toList();
    QueuePermissions.add(q, "a", accounts, List.of("SendMessage"), shard.now);
    QueuePermissions.add(q, "b", accounts.subList(0, 10), List.of("SendMessage"), shard.now);
    // 51 principals in all, though each grant is within AddPermission's own limits
    SqsException e = add("c", accounts.subList(0, 1), List.of("SendMessage"));
    assertEquals(ErrorCode.OVER_LIMIT, e.code());
    assertEquals("51 principals were found in the submitted policy, max allowed is 50", e.getMessage());
    assertEquals(2, q.attributes().policyDocument().statements().size(), "the refused grant left no trace");
  }

  @Test
  void grantsAddToAPolicySetByHand() {
    q.setAttributes(Map.of("Policy", "{\"Version\":\"2012-10-17\",\"Statement\":{\"Effect\":\"Deny\","
        + "\"Principal\":\"*\",\"Action\":\"sqs:PurgeQueue\",\"Resource\":\"*\"}}"), shard.now);
    QueuePermissions.add(q, "send", List.of("111122223333"), List.of("SendMessage"), shard.now);
    assertNotNull(q.attributes().policyDocument());
    assertEquals(2, q.attributes().policyDocument().statements().size());
  }
}
