package dev.sluice.testtools;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Everything one java.util.logging logger records, at every level, while open: for tests that check
 * what the server logs (and at which level). Closing puts the logger back as it was.
 */
public final class LogCapture extends Handler implements AutoCloseable {
  private final Logger logger;
  private final Level before;
  private final List<LogRecord> records = new CopyOnWriteArrayList<>();

  private LogCapture(Logger logger) {
    this.logger = logger;
    this.before = logger.getLevel();
    logger.setLevel(Level.ALL);
    logger.addHandler(this);
  }

  /** Starts capturing what the logger of {@code loggerName} (a class name) records. */
  public static LogCapture of(String loggerName) {
    return new LogCapture(Logger.getLogger(loggerName));
  }

  /** What was recorded so far, in order; the list follows later records. */
  public List<LogRecord> records() {
    return records;
  }

  public void clear() {
    records.clear();
  }

  @Override
  public void publish(LogRecord r) {
    records.add(r);
  }

  @Override
  public void flush() {}

  @Override
  public void close() {
    logger.removeHandler(this);
    logger.setLevel(before);
  }
}
