package dev.sluice.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.model.JsonText;
import java.util.Collections;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class QueuePolicyTest {
  static final String ARN = "arn:aws:sqs:us-east-1:111122223333:orders";

  static PolicyDocument parse(String text) {
    return QueuePolicy.parse(text, JsonText::parseObject);
  }

  static String statement(String members) {
    return "{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"sqs:SendMessage\",\"Resource\":\"" + ARN + "\""
        + members + "}";
  }

  static String policy(String... statements) {
    return "{\"Version\":\"2012-10-17\",\"Statement\":[" + String.join(",", statements) + "]}";
  }

  static String repeat(int n, String s) {
    return String.join(",", Collections.nCopies(n, s));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"Version\":\"2012-10-17\"}",
      "{\"Version\":\"2012-10-17\",\"Statement\":[]}",
      "{\"Version\":\"2008-10-17\",\"Id\":\"arn:aws:sqs:us-east-1:111122223333:orders/SQSDefaultPolicy\","
          + "\"Statement\":{\"Sid\":\"send\",\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"arn:aws:iam::444455556666:root\"},"
          + "\"Action\":\"SQS:SendMessage\",\"Resource\":\"arn:aws:sqs:us-east-1:111122223333:orders\"}}",
      "{\"Statement\":[{\"Effect\":\"Deny\",\"NotPrincipal\":{\"AWS\":\"111122223333\"},\"NotAction\":\"sqs:Get*\","
          + "\"NotResource\":\"arn:aws:sqs:*:*:public-*\"}]}",
      "{\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"Service\":\"sns.amazonaws.com\"},\"Action\":[\"sqs:SendMessage\"],"
          + "\"Resource\":\"*\",\"Condition\":{\"ArnEquals\":{\"aws:SourceArn\":\"arn:aws:sns:us-east-1:111122223333:t\"}}}]}"})
  void documentsAwsAcceptsAreAccepted(String text) {
    parse(text);
  }

  static Stream<Arguments> refusals() {
    return Stream.of(
        Arguments.of("not json", "the policy is not a JSON object"),
        Arguments.of("[1]", "the policy is not a JSON object"),
        Arguments.of("{\"Version\":\"2012-10-17\",\"Extra\":1}", "unknown policy element \"Extra\" (Version, Id, Statement)"),
        Arguments.of("{\"Version\":\"2020-01-01\"}", "Version must be \"2012-10-17\" or \"2008-10-17\", not \"2020-01-01\""),
        Arguments.of("{\"Id\":5}", "Id must be a string"),
        Arguments.of("{\"Statement\":\"x\"}", "Statement 1 must be an object, not \"x\""),
        Arguments.of(policy(statement(",\"Sid\":7")), "Statement 1: Sid must be a string"),
        Arguments.of(policy(statement(",\"Foo\":1")), "Statement 1: unknown element \"Foo\""),
        Arguments.of(policy(statement("").replace("\"Allow\"", "\"allow\"")),
            "Statement 1: Effect must be \"Allow\" or \"Deny\", not \"allow\""),
        Arguments.of(policy(statement("").replace(",\"Principal\":\"*\"", "")),
            "Statement 1: needs exactly one of Principal and NotPrincipal"),
        Arguments.of(policy(statement(",\"NotPrincipal\":\"*\"")), "Statement 1: needs exactly one of Principal and NotPrincipal"),
        Arguments.of(policy(statement(",\"NotAction\":\"sqs:*\"")), "Statement 1: needs exactly one of Action and NotAction"),
        Arguments.of(policy(statement("").replace(",\"Resource\":\"" + ARN + "\"", "")),
            "Statement 1: needs exactly one of Resource and NotResource"),
        Arguments.of(policy(statement("").replace(ARN, "orders")),
            "Statement 1.Resource: \"orders\" is neither \"*\" nor an ARN"),
        Arguments.of(policy(statement(""), statement("").replace("\"*\"", "{\"AWS\":\"abc\"}")),
            "Statement 2.Principal: \"abc\" is not an AWS principal"),
        Arguments.of(policy(statement("").replace("sqs:SendMessage", "sqs:SendMesage")),
            "Statement 1.Action: \"sqs:SendMesage\" names no SQS action"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("refusals")
  void whatAwsRefusesAnswersAwsGenericInvalidValue(String text, String reason) {
    PolicyException e = assertThrows(PolicyException.class, () -> parse(text));
    assertEquals(PolicyException.Kind.INVALID, e.kind());
    assertEquals(reason, e.getMessage());
    SqsException answer = e.asAttributeError();
    assertEquals(ErrorCode.INVALID_ATTRIBUTE_VALUE, answer.code());
    assertEquals("Invalid value for the parameter Policy.", answer.getMessage());
  }

  @Test
  void whatSluiceCannotEvaluateSaysWhy() {
    String text = policy(statement(",\"Condition\":{\"IpAddress\":{\"aws:SourceIp\":\"10.0.0.0/8\"}}"));
    SqsException answer = assertThrows(PolicyException.class, () -> parse(text)).asAttributeError();
    assertEquals(ErrorCode.INVALID_ATTRIBUTE_VALUE, answer.code());
    assertEquals("Invalid value for the parameter Policy. Reason: Statement 1.Condition.IpAddress: condition operator"
        + " \"IpAddress\" is not supported (String[Not]Equals, String[Not]Like, Arn[Not]Equals, Arn[Not]Like, with"
        + " IfExists or ForAnyValue:)", answer.getMessage());
  }

  static Stream<Arguments> quotas() {
    String tenActions = "[" + repeat(10, "\"sqs:SendMessage\"") + "]";
    String condition = "{\"StringEquals\":{\"aws:SourceAccount\":\"1\"}}";
    return Stream.of(
        Arguments.of(policy(repeat(21, statement(""))), "21 statements were found in the submitted policy, max allowed is 20"),
        Arguments.of(policy(statement("").replace("\"sqs:SendMessage\"", tenActions)),
            "10 actions were found in a statement from the submitted policy, max allowed is 7"),
        Arguments.of(policy(statement("").replace("\"Action\"", "\"NotAction\"").replace("\"sqs:SendMessage\"", tenActions)),
            "10 actions were found in a statement from the submitted policy, max allowed is 7"),
        Arguments.of(policy(statement("").replace("\"*\"", "{\"AWS\":[" + repeat(51, "\"444455556666\"") + "]}")),
            "51 principals were found in the submitted policy, max allowed is 50"),
        Arguments.of(policy(repeat(11, statement(",\"Condition\":" + condition))),
            "11 conditions were found in the submitted policy, max allowed is 10"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("quotas")
  void quotasAnswerOverLimitWithAwsText(String text, String message) {
    PolicyException e = assertThrows(PolicyException.class, () -> parse(text));
    assertEquals(PolicyException.Kind.OVER_LIMIT, e.kind());
    SqsException answer = e.asAttributeError();
    assertEquals(ErrorCode.OVER_LIMIT, answer.code());
    assertEquals(message, answer.getMessage());
  }

  @Test
  void quotasAreInclusive() {
    parse(policy(repeat(20, statement(""))));
    parse(policy(statement("").replace("\"sqs:SendMessage\"", "[" + repeat(7, "\"sqs:SendMessage\"") + "]")));
    parse(policy(statement("").replace("\"*\"", "{\"AWS\":[" + repeat(50, "\"444455556666\"") + "]}")));
    parse(policy(repeat(10, statement(",\"Condition\":{\"StringEquals\":{\"aws:SourceAccount\":\"1\"}}"))));
  }

  @Test
  void sizeIsCountedInUtf8BytesBeforeAnythingElse() {
    String twoByteChars = "é".repeat(4091);
    String justFits = "{\"Id\":\"" + twoByteChars + "a\"}";
    assertEquals(8192, justFits.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
    parse(justFits);
    PolicyException e = assertThrows(PolicyException.class, () -> parse("{\"Id\":\"" + twoByteChars + "ab\"}"));
    assertEquals(PolicyException.Kind.OVER_LIMIT, e.kind());
    assertEquals("Submitted policy is over max allowed size.", e.getMessage());
    assertEquals(ErrorCode.OVER_LIMIT, e.asAttributeError().code());
    PolicyException notJson = assertThrows(PolicyException.class, () -> parse("x".repeat(8193)));
    assertEquals(PolicyException.Kind.OVER_LIMIT, notJson.kind());
  }
}
