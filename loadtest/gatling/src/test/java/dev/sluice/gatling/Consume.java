package dev.sluice.gatling;

import static io.gatling.javaapi.core.CoreDsl.doIf;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;

import io.gatling.javaapi.core.ChainBuilder;

/** A consumer's step: long-poll up to 10 messages, then delete what came in one batch. */
final class Consume {
  private Consume() {}

  static ChainBuilder receiveAndDelete(String queueUrl, int waitSeconds) {
    return exec(Sqs.call("ReceiveMessage", s -> Sqs.receive(queueUrl, waitSeconds))
            .check(jsonPath("$.Messages[*].ReceiptHandle").findAll().optional().saveAs("handles")))
        .exec(doIf(s -> s.contains("handles")).then(
            exec(Sqs.call("DeleteMessageBatch", s -> Sqs.deleteBatch(queueUrl, s.<String>getList("handles")))))
        .exec(s -> s.remove("handles")));
  }
}
