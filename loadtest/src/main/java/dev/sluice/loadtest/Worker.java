package dev.sluice.loadtest;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import java.net.URI;

/**
 * One client event loop: its own HTTP client and its share of the users, each running its
 * iteration in a closed loop. Counts only what completes inside the measuring window.
 */
final class Worker extends VerticleBase {
  private final URI url;
  private final int connections;
  private HttpClient client;
  SqsCalls sqs;
  SnsCalls sns;

  io.vertx.core.Context context() {
    return context;
  }


  Worker(URI url, int connections) {
    this.url = url;
    this.connections = connections;
  }

  @Override
  public Future<?> start() {
    client = vertx.createHttpClient(
        new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true).setIdleTimeout(0),
        new PoolOptions().setHttp1MaxSize(connections).setMaxWaitQueueSize(-1));
    sns = new SnsCalls(client, url.getHost(), url.getPort());
    sqs = new SqsCalls(context, client, url.getHost(), url.getPort(), sns);
    return Future.succeededFuture();
  }

  /** Runs {@code users} loops until {@code endNanos}; counts iterations finishing after {@code fromNanos}. */
  Future<Recording> run(Iteration iteration, int users, long fromNanos, long endNanos) {
    Promise<Recording> done = Promise.promise();
    context.runOnContext(v -> {
      Recording recording = new Recording(false, fromNanos);
      int[] running = {users};
      for (int u = 0; u < users; u++) {
        loop(iteration, fromNanos, endNanos, recording, running, done);
      }
    });
    return done.future();
  }

  /** Most requests one worker keeps outstanding at a fixed rate; a due request beyond it invalidates the run. */
  static final int MAX_OUTSTANDING = 10_000;

  /**
   * Open loop: starts this worker's share of requests as {@code schedule} makes them due, whatever
   * the answers' pace, until {@code endNanos}; records those due inside the window. Latency counts
   * from the due time, so a server (or a generator) that falls behind shows it.
   */
  Future<Recording> runAtRate(Iteration it, OpenLoopSchedule schedule, long fromNanos, long endNanos) {
    Promise<Recording> done = Promise.promise();
    context.runOnContext(v -> {
      Recording recording = new Recording(true, fromNanos);
      long[] started = {0};
      int[] outstanding = {0};
      long timer = vertx.setPeriodic(1, id -> {
        long now = System.nanoTime();
        long due = schedule.dueBy(now, endNanos, started[0]);
        for (; started[0] < due; started[0]++) {
          long dueAt = schedule.dueAt(started[0]);
          boolean counted = dueAt >= fromNanos;
          if (outstanding[0] >= MAX_OUTSTANDING) {
            if (counted) {
              recording.unstarted++;
            }
            continue;
          }
          outstanding[0]++;
          long sentAt = System.nanoTime();
          it.run(sqs).onComplete((moved, failure) -> {
            outstanding[0]--;
            if (counted) {
              if (failure == null) {
                recording.succeeded(dueAt, sentAt, System.nanoTime(), moved);
              } else {
                recording.errors++;
              }
            }
            if (failure != null && recording.errors < 5) {
              System.err.println("error: " + failure.getMessage());
            }
          });
        }
      });
      vertx.setTimer(Math.max(1, (endNanos - System.nanoTime()) / 1_000_000), t -> {
        vertx.cancelTimer(timer);
        awaitOutstanding(outstanding, recording, done);
      });
    });
    return done.future();
  }

  private void awaitOutstanding(int[] outstanding, Recording recording, Promise<Recording> done) {
    if (outstanding[0] == 0) {
      done.complete(recording);
    } else {
      vertx.setTimer(10, t -> awaitOutstanding(outstanding, recording, done));
    }
  }

  private void loop(Iteration it, long fromNanos, long endNanos, Recording recording, int[] running,
      Promise<Recording> done) {
    long start = System.nanoTime();
    if (start >= endNanos) {
      if (--running[0] == 0) {
        done.complete(recording);
      }
      return;
    }
    it.run(sqs).onComplete((moved, failure) -> {
      long end = System.nanoTime();
      if (end >= fromNanos && end < endNanos) {
        if (failure == null) {
          recording.succeeded(start, start, end, moved);
        } else {
          recording.errors++;
        }
      }
      if (failure != null && recording.errors < 5) {
        System.err.println("error: " + failure.getMessage());
      }
      loop(it, fromNanos, endNanos, recording, running, done);
    });
  }
}
