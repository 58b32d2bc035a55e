package dev.sluice.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The table of engine actions: numbered in order, and the SNS ones marked, so that a cluster node
 * refuses them where they arrive rather than forwarding them (topics are not served across nodes
 * yet, and a refusal forwarded back would lose its SNS code).
 */
class EngineActionsTest {
  static final Set<String> SNS = Set.of("CreateTopic", "DeleteTopic", "ListTopics", "GetTopicAttributes",
      "SetTopicAttributes", "TagResource", "UntagResource", "ListTagsForResource", "Subscribe", "ConfirmSubscription",
      "Unsubscribe", "ListSubscriptions", "ListSubscriptionsByTopic", "GetSubscriptionAttributes",
      "SetSubscriptionAttributes", "Publish", "PublishBatch", "RelayPublish");

  @Test
  void actionsAreNumberedInOrderAndTheSnsOnesAreMarked() {
    List<EngineAction<?, ?>> all = EngineActions.all();
    for (int i = 0; i < all.size(); i++) {
      assertEquals(i, all.get(i).id());
      assertEquals(SNS.contains(all.get(i).name()), all.get(i).sns(), all.get(i).name());
    }
    assertEquals(SNS, Set.copyOf(all.stream().filter(EngineAction::sns).map(EngineAction::name).toList()));
  }
}
