package dev.sluice.gatling;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.during;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.Simulation;

/** SendMessageBatch of 10 messages in a closed loop: messages per second are ten times requests. */
public class SendBatchSimulation extends Simulation {
  private final String queueUrl = Sqs.createQueue("gatling-send-batch");

  {
    setUp(scenario("send-batch")
        .exec(during(Sqs.DURATION).on(Sqs.call("SendMessageBatch", s -> Sqs.sendBatch(queueUrl, "e"))))
        .injectOpen(atOnceUsers(Sqs.USERS)))
        .protocols(Sqs.protocol())
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void after() {
    Sqs.deleteQueue(queueUrl);
  }
}
