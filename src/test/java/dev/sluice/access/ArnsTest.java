package dev.sluice.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ArnsTest {
  @ParameterizedTest(name = "{0} ~ {1} = {2}")
  @CsvSource(delimiter = '|', value = {
      "*|arn:aws:sqs:us-east-1:111122223333:orders|true",
      "arn:aws:sqs:us-east-1:111122223333:orders|arn:aws:sqs:us-east-1:111122223333:orders|true",
      "arn:aws:sqs:us-east-1:111122223333:orders|arn:aws:sqs:us-east-1:111122223333:Orders|false",
      "arn:aws:sqs:*:111122223333:*|arn:aws:sqs:eu-west-1:111122223333:orders|true",
      "arn:aws:sqs:*:111122223333:*|arn:aws:sqs:eu-west-1:444455556666:orders|false",
      // a wildcard stays inside its component: it cannot swallow the account
      "arn:aws:sqs:*|arn:aws:sqs:eu-west-1:111122223333:orders|false",
      "arn:aws:sqs:us-east-?:111122223333:ord*|arn:aws:sqs:us-east-2:111122223333:orders|true",
      "arn:aws:sns:*:111122223333:topic|arn:aws:sqs:us-east-1:111122223333:topic|false",
      "arn:aws:sns:us-east-1:111122223333:*|not-an-arn|false"})
  void componentsMatchOneByOne(String pattern, String arn, boolean expected) {
    assertEquals(expected, Arns.matches(pattern, arn));
  }

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(delimiter = '|', value = {
      "*|true",
      "arn:aws:sqs:*:*:*|true",
      "arn:aws:sqs:us-east-1:111122223333:q|true",
      "arn:aws:sqs:us-east-1:111122223333|false",
      "urn:aws:sqs:us-east-1:111122223333:q|false",
      "orders|false"})
  void aPatternIsStarOrSixComponents(String s, boolean expected) {
    assertEquals(expected, Arns.isPattern(s));
  }

  @Test
  void theOwnerIsTheFifthComponent() {
    assertEquals("111122223333", Arns.accountOf("arn:aws:sqs:us-east-1:111122223333:orders"));
    assertNull(Arns.accountOf("orders"));
    assertNull(Arns.accountOf(null));
    assertEquals("arn:aws:iam::111122223333:root", Arns.rootOf("111122223333"));
  }
}
