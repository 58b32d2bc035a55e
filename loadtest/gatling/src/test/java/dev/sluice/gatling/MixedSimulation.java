package dev.sluice.gatling;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.during;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.Simulation;

/**
 * Producers and consumers on one queue at once: {@code producers} users send batches of 10 while
 * {@code consumers} users long-poll and delete (32 of each by default).
 */
public class MixedSimulation extends Simulation {
  private final String queueUrl = Sqs.createQueue("gatling-mixed");

  {
    setUp(
        scenario("producers")
            .exec(during(Sqs.DURATION).on(Sqs.call("SendMessageBatch", s -> Sqs.sendBatch(queueUrl, "e"))))
            .injectOpen(atOnceUsers(Integer.getInteger("producers", 32))),
        scenario("consumers")
            .exec(during(Sqs.DURATION).on(Consume.receiveAndDelete(queueUrl, 20)))
            .injectOpen(atOnceUsers(Integer.getInteger("consumers", 32))))
        .protocols(Sqs.protocol())
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void after() {
    Sqs.deleteQueue(queueUrl);
  }
}
