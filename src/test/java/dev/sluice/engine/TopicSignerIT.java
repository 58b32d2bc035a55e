package dev.sluice.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A signature is answered on the context that asked for it, whichever context made the signing
 * key: what follows a signature touches the asking shard's topics, which only its own loop may.
 */
class TopicSignerIT {

  /** Each verticle deployed gets an event-loop context of its own, as each shard does. */
  static Context newContext(Vertx vertx) throws Exception {
    Promise<Context> made = Promise.promise();
    vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        made.complete(context);
        return Future.succeededFuture();
      }
    }).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    return made.future().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void eachCallerIsAnsweredOnItsOwnContext() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      TopicSigner signer = TopicSigner.of(vertx, null);
      List<Context> callers = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        callers.add(newContext(vertx));
      }
      // The first round makes the key (on whichever context asks first), the second finds it made.
      for (int round = 0; round < 2; round++) {
        List<Future<String>> answers = new ArrayList<>();
        for (Context caller : callers) {
          Promise<String> where = Promise.promise();
          caller.runOnContext(v -> signer.sign(Map.of("k", "text"), "1").onComplete(done -> where.complete(
              done.failed() ? "failed: " + done.cause() : Vertx.currentContext() == caller ? "its own" : "another's")));
          answers.add(where.future());
        }
        for (Future<String> a : answers) {
          assertEquals("its own", a.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS));
        }
      }
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }
}
