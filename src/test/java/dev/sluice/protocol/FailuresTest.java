package dev.sluice.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.StreamResetException;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import dev.sluice.testtools.LogCapture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FailuresTest {
  LogCapture log;
  List<LogRecord> records;

  @BeforeEach
  void capture() {
    log = LogCapture.of(Failures.class.getName());
    records = log.records();
  }

  @AfterEach
  void release() {
    log.close();
  }

  @Test
  void aClientThatHungUpIsLoggedAtDebugWithoutAStackTrace() {
    for (Throwable gone : List.of(new HttpClosedException("Connection was closed"), new StreamResetException(8),
        new IllegalStateException("wrapped", new HttpClosedException("Connection was closed")))) {
      log.clear();
      assertTrue(Failures.isClientGone(gone), gone.toString());
      assertEquals(ErrorCode.INTERNAL_FAILURE, Failures.asSqs(gone).code());
      assertEquals(1, records.size());
      assertEquals(Level.FINE, records.get(0).getLevel(), "DEBUG");
      assertNull(records.get(0).getThrown());
    }
  }

  @Test
  void aRealInternalFailureStaysAnErrorWithItsStackTrace() {
    IllegalStateException bug = new IllegalStateException("a bug");
    assertFalse(Failures.isClientGone(bug));
    assertEquals(ErrorCode.INTERNAL_FAILURE, Failures.asSqs(bug).code());
    assertEquals(1, records.size());
    assertEquals(Level.SEVERE, records.get(0).getLevel(), "ERROR");
    assertSame(bug, records.get(0).getThrown());
  }

  @Test
  void anSqsErrorIsAnsweredAsItIsAndNotLogged() {
    SqsException e = SqsException.invalidParameter("no");
    assertSame(e, Failures.asSqs(e));
    assertEquals(List.of(), records);
  }
}
