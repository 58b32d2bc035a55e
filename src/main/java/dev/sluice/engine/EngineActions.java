package dev.sluice.engine;

import dev.sluice.api.AddPermission;
import dev.sluice.api.BatchIdsResponse;
import dev.sluice.api.CancelMessageMoveTask;
import dev.sluice.api.Caller;
import dev.sluice.api.ChangeMessageVisibility;
import dev.sluice.api.ChangeMessageVisibilityBatch;
import dev.sluice.api.CreateQueue;
import dev.sluice.api.DeleteMessage;
import dev.sluice.api.DeleteMessageBatch;
import dev.sluice.api.DeleteQueue;
import dev.sluice.api.GetQueueAttributes;
import dev.sluice.api.GetQueueUrl;
import dev.sluice.api.ListDeadLetterSourceQueues;
import dev.sluice.api.ListMessageMoveTasks;
import dev.sluice.api.ListQueueTags;
import dev.sluice.api.ListQueues;
import dev.sluice.api.PeekMessages;
import dev.sluice.api.PurgeQueue;
import dev.sluice.api.QueueKey;
import dev.sluice.api.RedeliveryBackoffPolicy;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.RemovePermission;
import dev.sluice.api.RelaySend;
import dev.sluice.api.SendMessage;
import dev.sluice.api.SendMessageBatch;
import dev.sluice.api.SetQueueAttributes;
import dev.sluice.api.StartMessageMoveTask;
import dev.sluice.api.TagQueue;
import dev.sluice.api.UntagQueue;
import dev.sluice.api.topics.ConfirmSubscription;
import dev.sluice.api.topics.CreateTopic;
import dev.sluice.api.topics.GetSubscriptionAttributes;
import dev.sluice.api.topics.ListSubscriptions;
import dev.sluice.api.topics.ListSubscriptionsByTopic;
import dev.sluice.api.topics.Publish;
import dev.sluice.api.topics.PublishBatch;
import dev.sluice.api.topics.SetSubscriptionAttributes;
import dev.sluice.api.topics.Subscribe;
import dev.sluice.api.topics.Unsubscribe;
import dev.sluice.api.topics.DeleteTopic;
import dev.sluice.api.topics.GetTopicAttributes;
import dev.sluice.api.topics.ListTagsForResource;
import dev.sluice.api.topics.ListTopics;
import dev.sluice.api.topics.SetTopicAttributes;
import dev.sluice.api.topics.TagResource;
import dev.sluice.api.topics.TopicKey;
import dev.sluice.api.topics.UntagResource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Every engine call a client's request can make (SQS, push, then SNS), numbered in a fixed order (nodes of one version
 * agree on the numbers; new actions go at the end), each with the queue it is about: for most, the
 * request's QueueUrl; for CreateQueue and GetQueueUrl, the name in the caller's (or the named
 * owner's) account and region; for move tasks, the source queue's ARN. ListQueues involves every
 * shard and runs where it is asked; ListDeadLetterSourceQueues runs on its dead-letter queue's node,
 * which asks every shard for its sources.
 */
public final class EngineActions {
  private static final List<EngineAction<?, ?>> ALL = new ArrayList<>();

  private EngineActions() {}

  public static final EngineAction<CreateQueue.Request, CreateQueue.Response> CREATE_QUEUE = add("CreateQueue",
      CreateQueue.Request.class, (c, r) -> named(c, r.queueName()), (e, c, r, g) -> e.queues().createQueue(c, r));
  public static final EngineAction<GetQueueUrl.Request, GetQueueUrl.Response> GET_QUEUE_URL = add("GetQueueUrl",
      GetQueueUrl.Request.class, (c, r) -> r.queueName() == null ? null : new QueueKey(
          r.queueOwnerAwsAccountId() == null || r.queueOwnerAwsAccountId().isEmpty() ? c.accountId()
              : r.queueOwnerAwsAccountId(), c.region(), r.queueName()),
      (e, c, r, g) -> e.queues().getQueueUrl(c, r));
  public static final EngineAction<DeleteQueue.Request, Void> DELETE_QUEUE = add("DeleteQueue",
      DeleteQueue.Request.class, (c, r) -> byUrl(c, r.queueUrl()), (e, c, r, g) -> e.queues().deleteQueue(c, r));
  public static final EngineAction<ListQueues.Request, ListQueues.Response> LIST_QUEUES = add("ListQueues",
      ListQueues.Request.class, (c, r) -> null, (e, c, r, g) -> e.listing().listQueues(c, r));
  public static final EngineAction<GetQueueAttributes.Request, GetQueueAttributes.Response> GET_QUEUE_ATTRIBUTES =
      add("GetQueueAttributes", GetQueueAttributes.Request.class, (c, r) -> byUrl(c, r.queueUrl()),
          (e, c, r, g) -> e.queues().getQueueAttributes(c, r));
  public static final EngineAction<SetQueueAttributes.Request, Void> SET_QUEUE_ATTRIBUTES = add(
      "SetQueueAttributes", SetQueueAttributes.Request.class, (c, r) -> byUrl(c, r.queueUrl()),
      (e, c, r, g) -> e.queues().setQueueAttributes(c, r));
  public static final EngineAction<TagQueue.Request, Void> TAG_QUEUE = add("TagQueue", TagQueue.Request.class,
      (c, r) -> byUrl(c, r.queueUrl()), (e, c, r, g) -> e.queues().tagQueue(c, r));
  public static final EngineAction<UntagQueue.Request, Void> UNTAG_QUEUE = add("UntagQueue",
      UntagQueue.Request.class, (c, r) -> byUrl(c, r.queueUrl()), (e, c, r, g) -> e.queues().untagQueue(c, r));
  public static final EngineAction<ListQueueTags.Request, ListQueueTags.Response> LIST_QUEUE_TAGS = add(
      "ListQueueTags", ListQueueTags.Request.class, (c, r) -> byUrl(c, r.queueUrl()),
      (e, c, r, g) -> e.queues().listQueueTags(c, r));
  public static final EngineAction<PurgeQueue.Request, Void> PURGE_QUEUE = add("PurgeQueue",
      PurgeQueue.Request.class, (c, r) -> byUrl(c, r.queueUrl()), (e, c, r, g) -> e.queues().purgeQueue(c, r));
  public static final EngineAction<AddPermission.Request, Void> ADD_PERMISSION = add("AddPermission",
      AddPermission.Request.class, (c, r) -> byUrl(c, r.queueUrl()), (e, c, r, g) -> e.queues().addPermission(c, r));
  public static final EngineAction<RemovePermission.Request, Void> REMOVE_PERMISSION = add("RemovePermission",
      RemovePermission.Request.class, (c, r) -> byUrl(c, r.queueUrl()),
      (e, c, r, g) -> e.queues().removePermission(c, r));

  public static final EngineAction<SendMessage.Request, SendMessage.Response> SEND_MESSAGE = add("SendMessage",
      SendMessage.Request.class, (c, r) -> byUrl(c, r.queueUrl()), (e, c, r, g) -> e.sends().sendMessage(c, r));
  public static final EngineAction<SendMessageBatch.Request, SendMessageBatch.Response> SEND_MESSAGE_BATCH = add(
      "SendMessageBatch", SendMessageBatch.Request.class, (c, r) -> byUrl(c, r.queueUrl()),
      (e, c, r, g) -> e.sends().sendMessageBatch(c, r));
  public static final EngineAction<ReceiveMessage.Request, ReceiveMessage.Response> RECEIVE_MESSAGE = add(
      "ReceiveMessage", ReceiveMessage.Request.class, (c, r) -> byUrl(c, r.queueUrl()),
      (e, c, r, g) -> e.receives().receiveMessage(c, r, g));
  public static final EngineAction<DeleteMessage.Request, Void> DELETE_MESSAGE = add("DeleteMessage",
      DeleteMessage.Request.class, (c, r) -> byUrl(c, r.queueUrl()), (e, c, r, g) -> e.receipts().deleteMessage(c, r));
  public static final EngineAction<DeleteMessageBatch.Request, BatchIdsResponse> DELETE_MESSAGE_BATCH = add(
      "DeleteMessageBatch", DeleteMessageBatch.Request.class, (c, r) -> byUrl(c, r.queueUrl()),
      (e, c, r, g) -> e.receipts().deleteMessageBatch(c, r));
  public static final EngineAction<ChangeMessageVisibility.Request, Void> CHANGE_MESSAGE_VISIBILITY = add(
      "ChangeMessageVisibility", ChangeMessageVisibility.Request.class, (c, r) -> byUrl(c, r.queueUrl()),
      (e, c, r, g) -> e.receipts().changeMessageVisibility(c, r));
  public static final EngineAction<ChangeMessageVisibilityBatch.Request, BatchIdsResponse>
      CHANGE_MESSAGE_VISIBILITY_BATCH = add("ChangeMessageVisibilityBatch", ChangeMessageVisibilityBatch.Request.class,
          (c, r) -> byUrl(c, r.queueUrl()), (e, c, r, g) -> e.receipts().changeMessageVisibilityBatch(c, r));

  public static final EngineAction<ListDeadLetterSourceQueues.Request, ListDeadLetterSourceQueues.Response>
      LIST_DEAD_LETTER_SOURCE_QUEUES = add("ListDeadLetterSourceQueues", ListDeadLetterSourceQueues.Request.class,
          (c, r) -> byUrl(c, r.queueUrl()), (e, c, r, g) -> e.redrive().listDeadLetterSourceQueues(c, r));
  public static final EngineAction<StartMessageMoveTask.Request, StartMessageMoveTask.Response>
      START_MESSAGE_MOVE_TASK = add("StartMessageMoveTask", StartMessageMoveTask.Request.class,
          (c, r) -> RedriveActions.keyIn(c.accountRegion(), r.sourceArn()),
          (e, c, r, g) -> e.redrive().startMessageMoveTask(c, r));
  public static final EngineAction<ListMessageMoveTasks.Request, ListMessageMoveTasks.Response>
      LIST_MESSAGE_MOVE_TASKS = add("ListMessageMoveTasks", ListMessageMoveTasks.Request.class,
          (c, r) -> RedriveActions.keyIn(c.accountRegion(), r.sourceArn()),
          (e, c, r, g) -> e.redrive().listMessageMoveTasks(c, r));
  public static final EngineAction<CancelMessageMoveTask.Request, CancelMessageMoveTask.Response>
      CANCEL_MESSAGE_MOVE_TASK = add("CancelMessageMoveTask", CancelMessageMoveTask.Request.class,
          (c, r) -> RedriveActions.keyIn(c.accountRegion(), TaskHandles.decode(r.taskHandle()).sourceArn()),
          (e, c, r, g) -> e.redrive().cancelMessageMoveTask(c, r));

  /** Push: a subscription's queue's visibility timeout (not an SQS action; numbered after them). */
  public static final EngineAction<PushRequests.VisibilityTimeout, PushRequests.Seconds> PUSH_VISIBILITY_TIMEOUT =
      add("PushVisibilityTimeout", PushRequests.VisibilityTimeout.class, (c, r) -> byUrl(c, r.queueUrl()),
          (e, c, r, g) -> e.receives().visibilityTimeout(c, r.queueUrl()).map(PushRequests.Seconds::new));
  /** Push: a closed subscription's messages made visible again. */
  public static final EngineAction<PushRequests.GiveBack, Void> GIVE_BACK = add("GiveBack",
      PushRequests.GiveBack.class, (c, r) -> byUrl(c, r.queueUrl()),
      (e, c, r, g) -> e.receives().giveBack(c, r.queueUrl(), r.receiptHandles()));

  // SNS (numbered after the SQS and push actions): keyed by the topic, from the name in CreateTopic
  // (the caller's account and region), from TopicArn or ResourceArn otherwise.
  public static final EngineAction<CreateTopic.Request, CreateTopic.Response> CREATE_TOPIC = addSns("CreateTopic",
      CreateTopic.Request.class, (c, r) -> r.name() == null ? null : new TopicKey(c.accountId(), c.region(), r.name()),
      (e, c, r, g) -> e.sns().topics().createTopic(c, r));
  public static final EngineAction<DeleteTopic.Request, Void> DELETE_TOPIC = addSns("DeleteTopic",
      DeleteTopic.Request.class, (c, r) -> TopicActions.topicArn(c, r.topicArn()),
      (e, c, r, g) -> e.sns().topics().deleteTopic(c, r));
  public static final EngineAction<ListTopics.Request, ListTopics.Response> LIST_TOPICS = addSns("ListTopics",
      ListTopics.Request.class, (c, r) -> null, (e, c, r, g) -> e.sns().topics().listTopics(c, r));
  public static final EngineAction<GetTopicAttributes.Request, GetTopicAttributes.Response> GET_TOPIC_ATTRIBUTES =
      addSns("GetTopicAttributes", GetTopicAttributes.Request.class, (c, r) -> TopicActions.topicArn(c, r.topicArn()),
          (e, c, r, g) -> e.sns().topics().getTopicAttributes(c, r));
  public static final EngineAction<SetTopicAttributes.Request, Void> SET_TOPIC_ATTRIBUTES = addSns(
      "SetTopicAttributes", SetTopicAttributes.Request.class, (c, r) -> TopicActions.topicArn(c, r.topicArn()),
      (e, c, r, g) -> e.sns().topics().setTopicAttributes(c, r));
  public static final EngineAction<TagResource.Request, Void> TAG_RESOURCE = addSns("TagResource",
      TagResource.Request.class, (c, r) -> TopicActions.resourceArn(c, r.resourceArn()),
      (e, c, r, g) -> e.sns().topics().tagResource(c, r));
  public static final EngineAction<UntagResource.Request, Void> UNTAG_RESOURCE = addSns("UntagResource",
      UntagResource.Request.class, (c, r) -> TopicActions.resourceArn(c, r.resourceArn()),
      (e, c, r, g) -> e.sns().topics().untagResource(c, r));
  public static final EngineAction<ListTagsForResource.Request, ListTagsForResource.Response>
      LIST_TAGS_FOR_RESOURCE = addSns("ListTagsForResource", ListTagsForResource.Request.class,
          (c, r) -> TopicActions.resourceArn(c, r.resourceArn()), (e, c, r, g) -> e.sns().topics().listTagsForResource(c, r));

  public static final EngineAction<Subscribe.Request, Subscribe.Response> SUBSCRIBE = addSns("Subscribe",
      Subscribe.Request.class, (c, r) -> TopicActions.topicArn(c, r.topicArn()),
      (e, c, r, g) -> e.sns().subscriptions().subscribe(c, r));
  public static final EngineAction<ConfirmSubscription.Request, ConfirmSubscription.Response> CONFIRM_SUBSCRIPTION =
      addSns("ConfirmSubscription", ConfirmSubscription.Request.class, (c, r) -> TopicActions.topicArn(c, r.topicArn()),
          (e, c, r, g) -> e.sns().subscriptions().confirmSubscription(c, r));
  public static final EngineAction<Unsubscribe.Request, Void> UNSUBSCRIBE = addSns("Unsubscribe",
      Unsubscribe.Request.class, (c, r) -> SubscriptionActions.subscriptionArn(c, r.subscriptionArn()).topic(),
      (e, c, r, g) -> e.sns().subscriptions().unsubscribe(c, r));
  public static final EngineAction<ListSubscriptions.Request, ListSubscriptions.Response> LIST_SUBSCRIPTIONS = addSns(
      "ListSubscriptions", ListSubscriptions.Request.class, (c, r) -> null,
      (e, c, r, g) -> e.sns().subscriptions().listSubscriptions(c, r));
  public static final EngineAction<ListSubscriptionsByTopic.Request, ListSubscriptions.Response>
      LIST_SUBSCRIPTIONS_BY_TOPIC = addSns("ListSubscriptionsByTopic", ListSubscriptionsByTopic.Request.class,
          (c, r) -> TopicActions.topicArn(c, r.topicArn()),
          (e, c, r, g) -> e.sns().subscriptions().listSubscriptionsByTopic(c, r));
  public static final EngineAction<GetSubscriptionAttributes.Request, GetSubscriptionAttributes.Response>
      GET_SUBSCRIPTION_ATTRIBUTES = addSns("GetSubscriptionAttributes", GetSubscriptionAttributes.Request.class,
          (c, r) -> SubscriptionActions.subscriptionArn(c, r.subscriptionArn()).topic(),
          (e, c, r, g) -> e.sns().subscriptions().getSubscriptionAttributes(c, r));
  public static final EngineAction<SetSubscriptionAttributes.Request, Void> SET_SUBSCRIPTION_ATTRIBUTES = addSns(
      "SetSubscriptionAttributes", SetSubscriptionAttributes.Request.class,
      (c, r) -> SubscriptionActions.subscriptionArn(c, r.subscriptionArn()).topic(),
      (e, c, r, g) -> e.sns().subscriptions().setSubscriptionAttributes(c, r));
  public static final EngineAction<Publish.Request, Publish.Response> PUBLISH = addSns("Publish", Publish.Request.class,
      (c, r) -> r.topicArn() != null ? TopicActions.topicArn(c, r.topicArn())
          : r.targetArn() != null ? TopicActions.topicArn(c, r.targetArn()) : null,
      (e, c, r, g) -> e.sns().publishes().publish(c, r));
  public static final EngineAction<PublishBatch.Request, PublishBatch.Response> PUBLISH_BATCH = addSns("PublishBatch",
      PublishBatch.Request.class, (c, r) -> TopicActions.topicArn(c, r.topicArn()),
      (e, c, r, g) -> e.sns().publishes().publishBatch(c, r));

  /**
   * The console's peek (not an SQS action, and no SQS protocol maps to it; appended after the SNS
   * actions): keyed by its QueueUrl like the SQS actions, so a cluster node forwards it to the owner.
   */
  public static final EngineAction<PeekMessages.Request, PeekMessages.Response> PEEK_MESSAGES = add("PeekMessages",
      PeekMessages.Request.class, (c, r) -> byUrl(c, r.queueUrl()), (e, c, r, g) -> e.peeks().peekMessages(c, r));

  /**
   * The outbox relay's sends and forgets (not SQS actions; appended after the console's peek): keyed
   * by their QueueUrl, so a cluster node forwards them to the queue's owner, which alone keeps the
   * queue's receipts.
   */
  public static final EngineAction<RelaySend.Request, RelaySend.Response> RELAY_SEND = add("RelaySend",
      RelaySend.Request.class, (c, r) -> byUrl(c, r.queueUrl()), (e, c, r, g) -> e.relays().send(c, r));
  public static final EngineAction<RelaySend.Forget, Void> RELAY_FORGET = add("RelayForget",
      RelaySend.Forget.class, (c, r) -> byUrl(c, r.queueUrl()), (e, c, r, g) -> e.relays().forget(c, r));

  /** The outbox relay's publishes: keyed by the topic, as Publish. */
  public static final EngineAction<RelaySend.Publish, RelaySend.Response> RELAY_PUBLISH = addSns("RelayPublish",
      RelaySend.Publish.class, (c, r) -> TopicActions.topicArn(c, r.topicArn()),
      (e, c, r, g) -> e.sns().publishes().relayPublish(c, r));

  /**
   * The console's redelivery backoff (a Sluice extension, not an SQS action; appended after the
   * relay's): keyed by its QueueUrl, so a cluster node forwards it to the queue's owner.
   */
  public static final EngineAction<RedeliveryBackoffPolicy.GetRequest, RedeliveryBackoffPolicy.Response>
      GET_REDELIVERY_BACKOFF = add("GetRedeliveryBackoff", RedeliveryBackoffPolicy.GetRequest.class,
          (c, r) -> byUrl(c, r.queueUrl()), (e, c, r, g) -> e.redeliveryBackoffs().get(c, r));
  public static final EngineAction<RedeliveryBackoffPolicy.SetRequest, RedeliveryBackoffPolicy.Response>
      SET_REDELIVERY_BACKOFF = add("SetRedeliveryBackoff", RedeliveryBackoffPolicy.SetRequest.class,
          (c, r) -> byUrl(c, r.queueUrl()), (e, c, r, g) -> e.redeliveryBackoffs().set(c, r));

  /** Every action, by its number. */
  public static List<EngineAction<?, ?>> all() {
    return Collections.unmodifiableList(ALL);
  }

  /** The action numbered {@code id}, or null. */
  public static EngineAction<?, ?> byId(int id) {
    return id >= 0 && id < ALL.size() ? ALL.get(id) : null;
  }

  private static <Q, R> EngineAction<Q, R> add(String name, Class<Q> requestType, EngineAction.KeyOf<Q> keyOf,
      EngineAction.Local<Q, R> local) {
    return add(name, requestType, keyOf, local, false);
  }

  private static <Q, R> EngineAction<Q, R> addSns(String name, Class<Q> requestType, EngineAction.KeyOf<Q> keyOf,
      EngineAction.Local<Q, R> local) {
    return add(name, requestType, keyOf, local, true);
  }

  private static <Q, R> EngineAction<Q, R> add(String name, Class<Q> requestType, EngineAction.KeyOf<Q> keyOf,
      EngineAction.Local<Q, R> local, boolean sns) {
    EngineAction<Q, R> a = new EngineAction<>(name, ALL.size(), requestType, keyOf, local, sns);
    ALL.add(a);
    return a;
  }

  /** The queue a QueueUrl names, in the caller's account and region unless it names another account. */
  private static QueueKey byUrl(Caller c, String queueUrl) {
    return queueUrl == null ? null : QueueUrls.keyOf(c.accountRegion(), queueUrl);
  }

  /** A queue of the caller's account and region named {@code name}. */
  private static QueueKey named(Caller c, String name) {
    return name == null ? null : c.accountRegion().queue(name);
  }
}
