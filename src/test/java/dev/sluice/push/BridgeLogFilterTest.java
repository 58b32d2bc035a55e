package dev.sluice.push;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.http.HttpClosedException;
import java.io.IOException;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/** Only a subscriber that went away is kept out of the bridge's ERROR log; the operator's filter still applies. */
class BridgeLogFilterTest {
  private static LogRecord error(Throwable thrown) {
    LogRecord r = new LogRecord(Level.SEVERE, "SockJSSocket exception");
    r.setThrown(thrown);
    return r;
  }

  @Test
  void aClientThatWentAwayIsNotAnError() {
    assertFalse(new BridgeLogFilter(null).isLoggable(error(new HttpClosedException("Connection was closed"))));
  }

  @Test
  void anyOtherRecordPassesToTheFilterThatWasThere() {
    assertTrue(new BridgeLogFilter(null).isLoggable(error(new IOException("disk full"))));
    assertTrue(new BridgeLogFilter(null).isLoggable(error(null)));
    assertFalse(new BridgeLogFilter(r -> false).isLoggable(error(new IOException("disk full"))));
  }
}
