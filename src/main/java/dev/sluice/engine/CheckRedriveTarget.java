package dev.sluice.engine;

import dev.sluice.api.QueueKey;
import io.vertx.core.Future;

/**
 * A RedrivePolicy being set on a queue of another node names {@code queue}, on this one, as its
 * dead-letter queue: it must exist and let the source in (see {@link RedriveChecks}).
 */
public record CheckRedriveTarget(QueueKey queue, String sourceArn, String value, String deadLetterTargetArn)
    implements PortableCall<CheckRedriveTarget.Checked> {

  /** The answer: the target takes the source. */
  public record Checked(boolean allowed) {}

  @Override
  public Future<Checked> run(QueueEngine engine) {
    return engine.onShard(queue, (s, reply) -> {
      RedriveChecks.checkTarget(s, queue, sourceArn, value, deadLetterTargetArn);
      reply.succeed(new Checked(true));
    });
  }
}
