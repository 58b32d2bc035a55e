package dev.sluice.push;

import dev.sluice.engine.CallerGone;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Vert.x's SockJS bridge logs every socket exception at ERROR ("SockJSSocket exception"), among
 * them a subscriber whose process ended without closing its WebSocket. That is the subscriber's
 * doing, not a failure of the server (its subscriptions end and give their messages back as on any
 * close), so such a record is logged at DEBUG instead; every other record passes on, to a filter
 * the operator set on that logger if there was one. It acts where Vert.x logs through
 * java.util.logging, as the packaged server does.
 */
final class BridgeLogFilter implements Filter {
  static final String BRIDGE_LOGGER = "io.vertx.ext.web.handler.sockjs.impl.EventBusBridgeImpl";
  /** Held here: java.util.logging keeps loggers only weakly, and a collected one forgets its filter. */
  private static final Logger BRIDGE = Logger.getLogger(BRIDGE_LOGGER);
  private static final System.Logger LOG = System.getLogger(BridgeLogFilter.class.getName());

  private final Filter next;

  BridgeLogFilter(Filter next) {
    this.next = next;
  }

  static synchronized void install() {
    if (!(BRIDGE.getFilter() instanceof BridgeLogFilter)) {
      BRIDGE.setFilter(new BridgeLogFilter(BRIDGE.getFilter()));
    }
  }

  @Override
  public boolean isLoggable(LogRecord record) {
    Throwable thrown = record.getThrown();
    if (CallerGone.isConnectionClosed(thrown)) {
      LOG.log(System.Logger.Level.DEBUG, () -> "A bridge client's connection ended without a close: " + thrown);
      return false;
    }
    return next == null || next.isLoggable(record);
  }
}
