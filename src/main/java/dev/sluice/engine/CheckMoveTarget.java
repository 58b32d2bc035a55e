package dev.sluice.engine;

import dev.sluice.api.Caller;
import dev.sluice.api.QueueKey;
import io.vertx.core.Future;

/**
 * A message move task being started on another node will send to {@code queue}, on this one (its
 * destination, or a source its messages go back to): the caller must be allowed to send there, and
 * a destination ({@code parameter} "DestinationArn") must exist (AWS API reference:
 * StartMessageMoveTask). Asked where the queue's policy lives, with the caller's identity as the
 * entry node settled it; a refusal comes back as the error the caller gets.
 */
public record CheckMoveTarget(QueueKey queue, String parameter, String accountId, String region, String accessKeyId,
    String baseUrl) implements PortableCall<CheckMoveTarget.Checked> {

  /** The answer: the caller may send there. */
  public record Checked(boolean allowed) {}

  /** The check for {@code caller}, read on its own loop. */
  static CheckMoveTarget of(Caller caller, QueueKey queue, String parameter) {
    return new CheckMoveTarget(queue, parameter, caller.accountId(), caller.region(), caller.accessKeyId(),
        caller.baseUrl());
  }

  @Override
  public Future<Checked> run(QueueEngine engine) {
    Permit send = engine.permit(caller(), "SendMessage");
    return send.answered(engine.onShard(queue, (s, reply) -> {
      RedriveActions.sendable(s, queue, parameter, send);
      reply.succeed(new Checked(true));
    }));
  }

  /** The caller as far as the check and its error need it. */
  private Caller caller() {
    return new Caller() {
      @Override
      public String requestId() {
        return null;
      }

      @Override
      public String baseUrl() {
        return baseUrl;
      }

      @Override
      public String senderId() {
        return null;
      }

      @Override
      public String traceHeader() {
        return null;
      }

      @Override
      public String accountId() {
        return accountId;
      }

      @Override
      public String region() {
        return region;
      }

      @Override
      public String accessKeyId() {
        return accessKeyId;
      }
    };
  }
}
