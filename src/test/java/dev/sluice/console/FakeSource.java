package dev.sluice.console;

import dev.sluice.engine.QueueSample;
import dev.sluice.engine.TopicSample;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.List;

/** A sampler's source for tests: answers what it is given, or holds its answer until released. */
final class FakeSource implements HistorySampler.Source {
  volatile List<QueueSample> queues = List.of();
  volatile List<TopicSample> topics = List.of();
  /** When set, readings wait on it. */
  volatile Promise<List<QueueSample>> held;

  @Override
  public Future<List<QueueSample>> queues() {
    Promise<List<QueueSample>> h = held;
    return h != null ? h.future() : Future.succeededFuture(queues);
  }

  @Override
  public Future<List<TopicSample>> topics() {
    return Future.succeededFuture(topics);
  }
}
