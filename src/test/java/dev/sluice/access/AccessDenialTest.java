package dev.sluice.access;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AccessDenialTest {
  static final String USER = "arn:aws:iam::444455556666:user/x";
  static final String QUEUE = "arn:aws:sqs:us-east-1:111122223333:orders";

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "NO_RESOURCE_POLICY_ALLOWS|because no resource-based policy allows the sqs:sendmessage action",
      "NO_IDENTITY_POLICY_ALLOWS|because no identity-based policy allows the sqs:sendmessage action",
      "EXPLICIT_DENY_IN_RESOURCE_POLICY|with an explicit deny in a resource-based policy",
      "EXPLICIT_DENY_IN_IDENTITY_POLICY|with an explicit deny in an identity-based policy"})
  void theJsonProtocolNamesWhoWhatWhereAndWhy(DenialReason reason, String ending) {
    AccessDenial d = new AccessDenial(USER, "SendMessage", QUEUE, reason);
    assertEquals("User: arn:aws:iam::444455556666:user/x is not authorized to perform: sqs:sendmessage on resource: "
        + "arn:aws:sqs:us-east-1:111122223333:orders " + ending, d.jsonMessage());
    SqsException e = d.error("http://127.0.0.1:9324/111122223333/orders");
    assertEquals(ErrorCode.ACCESS_DENIED, e.code());
    assertEquals(d.jsonMessage(), e.getMessage());
  }

  @Test
  void theQueryProtocolNamesOnlyTheResource() {
    AccessDenial d = new AccessDenial(USER, "ReceiveMessage", QUEUE, DenialReason.NO_RESOURCE_POLICY_ALLOWS);
    assertEquals("Access to the resource https://sqs.us-east-1.amazonaws.com/111122223333/orders is denied.",
        d.queryMessage("https://sqs.us-east-1.amazonaws.com/111122223333/orders"));
    SqsException e = d.error("http://127.0.0.1:9324/111122223333/orders");
    assertEquals(ErrorCode.ACCESS_DENIED, e.code());
    assertEquals("AccessDenied", e.code().queryCode());
    assertEquals("Access to the resource http://127.0.0.1:9324/111122223333/orders is denied.", e.queryMessage());
  }
}
