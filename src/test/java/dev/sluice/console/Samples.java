package dev.sluice.console;

import dev.sluice.api.QueueKey;
import dev.sluice.api.topics.TopicKey;
import dev.sluice.engine.QueueSample;
import dev.sluice.engine.TopicSample;

/** Samples for the console's tests: the default account and region unless named. */
final class Samples {
  static final String ACCOUNT = "000000000000";
  static final String REGION = "us-east-1";

  private Samples() {}

  static QueueKey key(String name) {
    return new QueueKey(ACCOUNT, REGION, name);
  }

  static String arn(String name) {
    return "arn:aws:sqs:" + REGION + ":" + ACCOUNT + ":" + name;
  }

  /** A queue with these gauges and totals, generation 1, no redrive policy. */
  static QueueSample queue(String name, int visible, int inflight, int delayed, long arrived, long received,
      long deleted) {
    return new QueueSample(key(name), 1, null, visible, inflight, delayed, 0, arrived, received, deleted);
  }

  static QueueSample idle(String name) {
    return queue(name, 0, 0, 0, 0, 0, 0);
  }

  static TopicSample topic(String name, long published, long delivered) {
    return new TopicSample(new TopicKey(ACCOUNT, REGION, name), published, delivered, 0, 0);
  }
}
