package dev.sluice.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueueListingTest {
  static final List<String> NAMES = List.of("c", "a", "d", "b.fifo", "b");

  @Test
  void aNextTokenResumesAfterTheLastNameReturned() {
    QueueListing.Page first = QueueListing.page(NAMES, null, 2);
    assertEquals(List.of("a", "b"), first.names());
    QueueListing.Page second = QueueListing.page(NAMES, first.nextToken(), 2);
    assertEquals(List.of("b.fifo", "c"), second.names());
    QueueListing.Page last = QueueListing.page(NAMES, second.nextToken(), 2);
    assertEquals(List.of("d"), last.names());
    assertNull(last.nextToken());
  }

  @Test
  void aTokenThatIsNoQueueNamePositionIsInvalidParameterValue() {
    String notBase64 = "!!!";
    String notUtf8 = "garbage"; // decodes, to bytes that are not UTF-8
    String notAName = token("not a queue name");
    String tooLong = token("x".repeat(81));
    String emptyName = token(".fifo");
    for (String garbage : List.of(notBase64, notUtf8, notAName, tooLong, emptyName)) {
      SqsException e = assertThrows(SqsException.class, () -> QueueListing.page(NAMES, garbage, 2), garbage);
      assertEquals(ErrorCode.INVALID_PARAMETER_VALUE, e.code(), garbage);
      assertEquals("Invalid NextToken value.", e.getMessage());
    }
  }

  @Test
  void aTokenNamingAQueueThatIsGoneStillResumes() {
    assertEquals(List.of("c", "d"), QueueListing.page(NAMES, token("bz"), 10).names());
  }

  static String token(String name) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(name.getBytes(StandardCharsets.UTF_8));
  }
}
