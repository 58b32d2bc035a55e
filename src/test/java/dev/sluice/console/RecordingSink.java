package dev.sluice.console;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An event sink for tests: keeps what is written, and reports a full write queue when told to. */
final class RecordingSink implements EventSink {
  final List<String> frames = new CopyOnWriteArrayList<>();
  volatile boolean begun;
  volatile boolean full;
  volatile boolean ended;
  volatile Runnable closed;
  /** The other side went away before the stream began (its close handler, set later, never runs). */
  volatile boolean goneEarly;

  @Override
  public void begin() {
    begun = true;
  }

  @Override
  public boolean writeQueueFull() {
    return full;
  }

  @Override
  public void write(String frame) {
    if (!ended) {
      frames.add(frame);
    }
  }

  @Override
  public void end() {
    ended = true;
  }

  @Override
  public void onClose(Runnable closed) {
    this.closed = closed;
  }

  @Override
  public boolean closed() {
    return goneEarly;
  }

  long count(String prefix) {
    return frames.stream().filter(f -> f.startsWith(prefix)).count();
  }
}
