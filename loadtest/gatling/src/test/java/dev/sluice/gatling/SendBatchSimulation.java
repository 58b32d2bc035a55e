package dev.sluice.gatling;

import static io.gatling.javaapi.core.CoreDsl.exec;

import io.gatling.javaapi.core.Simulation;

/** SendMessageBatch of 10 messages in a closed loop: messages per second are ten times requests. */
public class SendBatchSimulation extends Simulation {
  private final String queueUrl = Sqs.createQueue("gatling-send-batch");

  {
    setUp(Sqs.loop("send-batch", exec(Sqs.call("SendMessageBatch", s -> Sqs.sendBatch(queueUrl, "e"))), Sqs.USERS))
        .protocols(Sqs.protocol())
        .assertions(Sqs.noFailures());
  }

  @Override
  public void after() {
    Sqs.deleteQueue(queueUrl);
  }
}
