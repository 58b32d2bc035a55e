package dev.sluice.gatling;

import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.exec;

import io.gatling.javaapi.core.Simulation;

/**
 * Many idle long polls: {@code users} users (1,000 by default), each on a connection of its own,
 * repeat ReceiveMessage with WaitTimeSeconds 20 on an empty queue. Every poll must come back empty
 * after its 20 s, none early and none failed: parked polls cost the server memory, not CPU.
 */
public class IdleLongPollsSimulation extends Simulation {
  private final String queueUrl = Sqs.createQueue("gatling-idle");

  {
    setUp(Sqs.loop("idle-long-polls", exec(Sqs.call("ReceiveMessage", s -> Sqs.receive(queueUrl, 20))),
        Integer.getInteger("users", 1_000)))
        .protocols(Sqs.protocol())
        .assertions(Sqs.noFailures(), details("ReceiveMessage").responseTime().min().gte(19_000));
  }

  @Override
  public void after() {
    Sqs.deleteQueue(queueUrl);
  }
}
