package dev.sluice.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.model.JsonText;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class PrincipalsTest {
  static final String OWNER = "111122223333";
  static final String OTHER = "444455556666";
  static final Requester OWNER_ROOT = Requester.of(OWNER, null, IdentityPolicy.FULL_ACCESS);
  static final Requester OWNER_USER = Requester.of(OWNER, "arn:aws:iam::111122223333:user/alice", IdentityPolicy.FULL_ACCESS);
  static final Requester OTHER_USER = Requester.of(OTHER, "arn:aws:iam::444455556666:user/bob", IdentityPolicy.FULL_ACCESS);
  static final Requester SNS = Requester.service("sns.amazonaws.com");

  static Principals principals(String json) {
    return Principals.parse(JsonText.parse(json), "Statement 1.Principal");
  }

  static Stream<Arguments> matching() {
    return Stream.of(
        // principal, requester, in an Allow, in a Deny
        Arguments.of("\"*\"", OTHER_USER, true, true),
        Arguments.of("\"*\"", SNS, true, true),
        Arguments.of("{\"AWS\":\"*\"}", SNS, true, true),
        Arguments.of("{\"AWS\":\"444455556666\"}", OTHER_USER, true, true),
        Arguments.of("{\"AWS\":\"arn:aws:iam::444455556666:root\"}", OTHER_USER, true, true),
        Arguments.of("{\"AWS\":[\"999999999999\",\"444455556666\"]}", OTHER_USER, true, true),
        Arguments.of("{\"AWS\":\"444455556666\"}", OWNER_USER, false, false),
        // naming the owner's own account delegates to its identity policies: it grants the root only
        Arguments.of("{\"AWS\":\"111122223333\"}", OWNER_USER, false, true),
        Arguments.of("{\"AWS\":\"111122223333\"}", OWNER_ROOT, true, true),
        Arguments.of("{\"AWS\":\"arn:aws:iam::111122223333:user/alice\"}", OWNER_USER, true, true),
        Arguments.of("{\"AWS\":\"arn:aws:iam::111122223333:user/alice\"}", OWNER_ROOT, false, false),
        Arguments.of("{\"AWS\":\"444455556666\"}", SNS, false, false),
        Arguments.of("{\"Service\":\"sns.amazonaws.com\"}", SNS, true, true),
        Arguments.of("{\"Service\":\"SNS.amazonaws.com\"}", SNS, true, true),
        Arguments.of("{\"Service\":[\"events.amazonaws.com\"]}", SNS, false, false),
        Arguments.of("{\"Service\":\"sns.amazonaws.com\"}", OTHER_USER, false, false));
  }

  @ParameterizedTest(name = "{0} names {1}: allow {2}, deny {3}")
  @MethodSource("matching")
  void namesRequestersAsAwsDoes(String principal, Requester who, boolean inAllow, boolean inDeny) {
    assertEquals(inAllow, principals(principal).matches(who, OWNER, true), "in an Allow");
    assertEquals(inDeny, principals(principal).matches(who, OWNER, false), "in a Deny");
  }

  @ParameterizedTest(name = "{0} is refused")
  @ValueSource(strings = {
      "\"444455556666\"", "{}", "{\"AWS\":[]}", "{\"AWS\":\"abc\"}", "{\"AWS\":\"12345\"}",
      "{\"AWS\":\"arn:aws:iam::12345:root\"}", "{\"AWS\":\"arn:aws:sqs:us-east-1:111122223333:q\"}",
      "{\"AWS\":true}", "{\"Service\":\"sns\"}", "{\"Service\":\"*\"}", "[\"*\"]", "{\"aws\":\"*\"}"})
  void malformedPrincipalsAreInvalid(String principal) {
    PolicyException e = assertThrows(PolicyException.class, () -> principals(principal));
    assertEquals(PolicyException.Kind.INVALID, e.kind(), e.getMessage());
  }

  @Test
  void otherPrincipalTypesAreRefusedAsUnsupported() {
    PolicyException e = assertThrows(PolicyException.class,
        () -> principals("{\"Federated\":\"cognito-identity.amazonaws.com\"}"));
    assertEquals(PolicyException.Kind.UNSUPPORTED, e.kind());
    assertEquals("Statement 1.Principal: principals of type \"Federated\" are not supported (AWS, Service)",
        e.getMessage());
  }

  @Test
  void anAccountIdWrittenAsANumberIsStillAnAccount() {
    assertEquals(true, principals("{\"AWS\":444455556666}").matches(OTHER_USER, OWNER, true));
  }

  @Test
  void everyNamedPrincipalCounts() {
    assertEquals(1, principals("\"*\"").count());
    assertEquals(3, principals("{\"AWS\":[\"*\",\"444455556666\"],\"Service\":\"sns.amazonaws.com\"}").count());
  }
}
