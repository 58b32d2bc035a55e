package dev.sluice.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class OutboxBodyTest {
  @Test
  void aBodyCarriesItsIntendedCommitTimeAndRowAndIsPaddedToTheBodySize() {
    String body = OutboxBody.of(1_234_567_890L, 42, 100);
    assertEquals(100, body.length());
    assertEquals(new OutboxBody.Parsed(1_234_567_890L, 42), OutboxBody.parse(body));
  }

  @Test
  void aBodyShorterThanItsNumbersIsNotCutShort() {
    String body = OutboxBody.of(9_000_000_000L, 123_456, 4);
    assertEquals(new OutboxBody.Parsed(9_000_000_000L, 123_456), OutboxBody.parse(body));
  }

  @Test
  void anythingElseIsForeign() {
    for (String body : new String[] {"", "x", "12", "12 34", "12 x4 ", "-1 2 ", "d17 xxxx", " 1 2",
        "1234567890123456789 1 "}) {
      assertEquals(OutboxBody.Parsed.FOREIGN, OutboxBody.parse(body), body);
    }
  }
}
