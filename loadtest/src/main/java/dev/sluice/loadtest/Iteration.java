package dev.sluice.loadtest;

import io.vertx.core.Future;

/** One step of a closed-loop user: some SQS calls; the answer is how many messages it moved. */
@FunctionalInterface
interface Iteration {
  Future<Integer> run(SqsCalls sqs);
}
