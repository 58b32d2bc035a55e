package dev.sluice.gatling;

import static io.gatling.javaapi.core.CoreDsl.exec;

import io.gatling.javaapi.core.Simulation;

/**
 * Producers and consumers on one queue at once: {@code producers} users send batches of 10 while
 * {@code consumers} users long-poll and delete (32 of each by default).
 */
public class MixedSimulation extends Simulation {
  private final String queueUrl = Sqs.createQueue("gatling-mixed");

  {
    setUp(
        Sqs.loop("producers", exec(Sqs.call("SendMessageBatch", s -> Sqs.sendBatch(queueUrl, "e"))),
            Integer.getInteger("producers", 32)),
        Sqs.loop("consumers", Consume.receiveAndDelete(queueUrl, 20), Integer.getInteger("consumers", 32)))
        .protocols(Sqs.protocol())
        .assertions(Sqs.noFailures());
  }

  @Override
  public void after() {
    Sqs.deleteQueue(queueUrl);
  }
}
