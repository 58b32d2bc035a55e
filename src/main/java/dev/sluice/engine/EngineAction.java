package dev.sluice.engine;

import dev.sluice.api.Caller;
import dev.sluice.api.ShardKey;
import io.vertx.core.Future;

/**
 * One engine call a client's request makes (an SQS or SNS action, whatever its wire protocol), with
 * the queue or topic it is about: the one choke point through which a cluster node runs it where
 * that key's shard is ({@link QueueEngine#run}). Its request and response are plain api records, which travel
 * between nodes as they are. {@code R} is {@link Void} for actions answering nothing. Immutable.
 */
public final class EngineAction<Q, R> {
  /** The engine call that answers the request on the node that runs it. */
  @FunctionalInterface
  public interface Local<Q, R> {
    Future<R> run(QueueEngine engine, Caller caller, Q request, CallerGone gone);
  }

  /**
   * The queue or topic whose shard runs the request; null for a request that involves no one (it
   * runs where it is asked), or whose key cannot be told (it runs where it is asked, and fails
   * there as it must).
   */
  @FunctionalInterface
  public interface KeyOf<Q> {
    ShardKey of(Caller caller, Q request);
  }

  private final String name;
  private final int id;
  private final Class<Q> requestType;
  private final KeyOf<Q> keyOf;
  private final Local<Q, R> local;
  private final boolean sns;

  EngineAction(String name, int id, Class<Q> requestType, KeyOf<Q> keyOf, Local<Q, R> local, boolean sns) {
    this.name = name;
    this.id = id;
    this.requestType = requestType;
    this.keyOf = keyOf;
    this.local = local;
    this.sns = sns;
  }

  /** Whether this is an SNS action: cluster mode does not serve topics yet, so it never forwards one. */
  boolean sns() {
    return sns;
  }

  public String name() {
    return name;
  }

  /** Its number in {@link EngineActions#all()}, the same on every node of one version. */
  public int id() {
    return id;
  }

  public Class<Q> requestType() {
    return requestType;
  }

  /** The queue or topic the request is about, or null (see {@link KeyOf}); a request it cannot read gives null. */
  ShardKey keyOf(Caller caller, Q request) {
    try {
      return keyOf.of(caller, request);
    } catch (RuntimeException unreadable) {
      return null; // the action refuses it with the error its clients expect
    }
  }

  /** Runs the request on this node; a refusal thrown on the way comes back as the failed future. */
  Future<R> runLocally(QueueEngine engine, Caller caller, Q request, CallerGone gone) {
    try {
      return local.run(engine, caller, request, gone);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
