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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FailuresTest {
  final Logger logger = Logger.getLogger(Failures.class.getName());
  final List<LogRecord> records = new CopyOnWriteArrayList<>();
  final Handler capture = new Handler() {
    @Override
    public void publish(LogRecord r) {
      records.add(r);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };
  Level before;

  @BeforeEach
  void capture() {
    before = logger.getLevel();
    logger.setLevel(Level.ALL);
    logger.addHandler(capture);
  }

  @AfterEach
  void release() {
    logger.removeHandler(capture);
    logger.setLevel(before);
  }

  @Test
  void aClientThatHungUpIsLoggedAtDebugWithoutAStackTrace() {
    for (Throwable gone : List.of(new HttpClosedException("Connection was closed"), new StreamResetException(8),
        new IllegalStateException("wrapped", new HttpClosedException("Connection was closed")))) {
      records.clear();
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
