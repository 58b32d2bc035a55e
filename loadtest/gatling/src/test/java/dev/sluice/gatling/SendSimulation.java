package dev.sluice.gatling;

import static io.gatling.javaapi.core.CoreDsl.exec;

import io.gatling.javaapi.core.Simulation;

/** SendMessage (100 B by default) in a closed loop by {@code users} users for {@code duration} s. */
public class SendSimulation extends Simulation {
  private final String queueUrl = Sqs.createQueue("gatling-send");

  {
    setUp(Sqs.loop("send", exec(Sqs.call("SendMessage", s -> Sqs.sendOne(queueUrl))), Sqs.USERS))
        .protocols(Sqs.protocol())
        .assertions(Sqs.noFailures());
  }

  @Override
  public void after() {
    Sqs.deleteQueue(queueUrl);
  }
}
