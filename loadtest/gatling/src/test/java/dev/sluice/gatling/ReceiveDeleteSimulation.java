package dev.sluice.gatling;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.during;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.Simulation;

/**
 * Consumers only: the queue is filled with {@code prefill} messages (100,000 by default) first,
 * then {@code users} users long-poll (ReceiveMessage, 10 messages, WaitTimeSeconds 20) and delete
 * each batch they get.
 */
public class ReceiveDeleteSimulation extends Simulation {
  // Filled here, not in before(): an exception there does not stop the run, here it does.
  private final String queueUrl =
      Sqs.prefill(Sqs.createQueue("gatling-receive"), Integer.getInteger("prefill", 100_000));

  {
    setUp(scenario("receive-delete")
        .exec(during(Sqs.DURATION).on(Consume.receiveAndDelete(queueUrl, 20)))
        .injectOpen(atOnceUsers(Sqs.USERS)))
        .protocols(Sqs.protocol())
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void after() {
    Sqs.deleteQueue(queueUrl);
  }
}
