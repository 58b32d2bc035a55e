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

  record Result(long operations, long messages, long errors, Histogram latency) {}

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
  Future<Result> run(Iteration iteration, int users, long fromNanos, long endNanos) {
    Promise<Result> done = Promise.promise();
    context.runOnContext(v -> {
      long[] ops = new long[1];
      long[] messages = new long[1];
      long[] errors = new long[1];
      int[] running = {users};
      Histogram latency = new Histogram();
      for (int u = 0; u < users; u++) {
        loop(iteration, fromNanos, endNanos, ops, messages, errors, latency, running, done);
      }
    });
    return done.future();
  }

  /** Most requests one worker keeps outstanding at a fixed rate; beyond it a due request is an error. */
  static final int MAX_OUTSTANDING = 10_000;

  /**
   * Open loop: starts {@code perSecond} iterations a second, whatever the answers' pace, until
   * {@code endNanos}. Latency counts from when each request was due, not from when it could be sent,
   * so a server that falls behind shows it (no coordinated omission).
   */
  Future<Result> runAtRate(Iteration it, double perSecond, long fromNanos, long endNanos) {
    Promise<Result> done = Promise.promise();
    context.runOnContext(v -> {
      long[] counters = new long[4]; // ops, messages, errors, outstanding
      Histogram latency = new Histogram();
      long start = System.nanoTime();
      long[] started = {0};
      long timer = vertx.setPeriodic(1, id -> {
        long now = System.nanoTime();
        // Request k is due at start + k / rate and starts on the first tick at or after then (it
        // started one interval late before, and that interval counted as latency).
        for (; ; started[0]++) {
          long dueAt = start + (long) (started[0] * 1e9 / perSecond);
          if (dueAt > now || dueAt >= endNanos) {
            break;
          }
          if (counters[3] >= MAX_OUTSTANDING) {
            counters[2]++;
            continue;
          }
          counters[3]++;
          it.run(sqs).onComplete((moved, failure) -> {
            counters[3]--;
            long end = System.nanoTime();
            if (dueAt >= fromNanos && dueAt < endNanos) {
              if (failure == null) {
                counters[0]++;
                counters[1] += moved;
                latency.record((end - dueAt) / 1000);
              } else {
                counters[2]++;
              }
            }
            if (failure != null && counters[2] < 5) {
              System.err.println("error: " + failure.getMessage());
            }
          });
        }
      });
      vertx.setTimer(Math.max(1, (endNanos - System.nanoTime()) / 1_000_000), t -> {
        vertx.cancelTimer(timer);
        awaitOutstanding(counters, latency, done);
      });
    });
    return done.future();
  }

  private void awaitOutstanding(long[] counters, Histogram latency, Promise<Result> done) {
    if (counters[3] == 0) {
      done.complete(new Result(counters[0], counters[1], counters[2], latency));
    } else {
      vertx.setTimer(10, t -> awaitOutstanding(counters, latency, done));
    }
  }

  private void loop(Iteration it, long fromNanos, long endNanos, long[] ops, long[] messages, long[] errors,
      Histogram latency, int[] running, Promise<Result> done) {
    long start = System.nanoTime();
    if (start >= endNanos) {
      if (--running[0] == 0) {
        done.complete(new Result(ops[0], messages[0], errors[0], latency));
      }
      return;
    }
    it.run(sqs).onComplete((moved, failure) -> {
      long end = System.nanoTime();
      if (end >= fromNanos && end < endNanos) {
        if (failure == null) {
          ops[0]++;
          messages[0] += moved;
          latency.record((end - start) / 1000);
        } else {
          errors[0]++;
        }
      }
      if (failure != null && errors[0] < 5) {
        System.err.println("error: " + failure.getMessage());
      }
      loop(it, fromNanos, endNanos, ops, messages, errors, latency, running, done);
    });
  }
}
