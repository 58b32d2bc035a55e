package dev.sluice.gatling;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.during;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.Simulation;

/** SendMessage (100 B by default) in a closed loop by {@code users} users for {@code duration} s. */
public class SendSimulation extends Simulation {
  private final String queueUrl = Sqs.createQueue("gatling-send");

  {
    setUp(scenario("send")
        .exec(during(Sqs.DURATION).on(Sqs.call("SendMessage", s -> Sqs.sendOne(queueUrl))))
        .injectOpen(atOnceUsers(Sqs.USERS)))
        .protocols(Sqs.protocol())
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void after() {
    Sqs.deleteQueue(queueUrl);
  }
}
