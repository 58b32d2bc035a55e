package dev.sluice.gatling;

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
    setUp(Sqs.loop("receive-delete", Consume.receiveAndDelete(queueUrl, 20), Sqs.USERS))
        .protocols(Sqs.protocol())
        .assertions(Sqs.noFailures());
  }

  @Override
  public void after() {
    Sqs.deleteQueue(queueUrl);
  }
}
