package dev.sluice.console;

import io.vertx.core.http.HttpServerResponse;

/**
 * Where one stream's events go: an HTTP response in the server, a recording in tests. Every method
 * is called on the stream's own context.
 */
public interface EventSink {
  /** The response's head: status 200 and {@code text/event-stream}; called once, before the first event. */
  void begin();

  /** Whether the write queue holds its bound already. */
  boolean writeQueueFull();

  void write(String frame);

  /** Ends the stream; a sink already closed ignores it. */
  void end();

  /** {@code closed} runs when the other side goes away from now on (see {@link #closed}). */
  void onClose(Runnable closed);

  /** Whether the other side has gone already: then {@link #onClose}'s handler will not run. */
  boolean closed();

  /** A sink writing server-sent events into {@code response}, with a write queue of {@code maxQueuedBytes}. */
  static EventSink of(HttpServerResponse response, int maxQueuedBytes) {
    return new EventSink() {
      @Override
      public void begin() {
        response.setStatusCode(200).setChunked(true).setWriteQueueMaxSize(maxQueuedBytes)
            .putHeader("Content-Type", "text/event-stream; charset=utf-8").putHeader("Cache-Control", "no-store");
        // Sends the head at once, so the client sees the stream open before the first event.
        response.writeHead();
      }

      @Override
      public boolean writeQueueFull() {
        return response.writeQueueFull();
      }

      @Override
      public void write(String frame) {
        if (!response.closed() && !response.ended()) {
          response.write(frame);
        }
      }

      @Override
      public void end() {
        if (!response.closed() && !response.ended()) {
          response.end();
        }
      }

      @Override
      public void onClose(Runnable closed) {
        response.closeHandler(v -> closed.run());
      }

      @Override
      public boolean closed() {
        return response.closed();
      }
    };
  }
}
