package dev.sluice.cluster;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.AddPermission;
import dev.sluice.api.BatchIdsResponse;
import dev.sluice.api.BatchResultErrorEntry;
import dev.sluice.api.CancelMessageMoveTask;
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
import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.PeekMessages;
import dev.sluice.api.RelaySend;
import dev.sluice.api.RedeliveryBackoffPolicy;
import dev.sluice.api.PurgeQueue;
import dev.sluice.api.QueueKey;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.RemovePermission;
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
import dev.sluice.api.topics.SubscriptionSummary;
import dev.sluice.api.topics.Unsubscribe;
import dev.sluice.api.topics.DeleteTopic;
import dev.sluice.api.topics.GetTopicAttributes;
import dev.sluice.api.topics.ListTagsForResource;
import dev.sluice.api.topics.ListTopics;
import dev.sluice.api.topics.SetTopicAttributes;
import dev.sluice.api.topics.TagResource;
import dev.sluice.api.topics.TopicKey;
import dev.sluice.api.topics.TopicNotification;
import dev.sluice.api.topics.UntagResource;
import dev.sluice.api.triggers.EventSourceMapping;
import dev.sluice.api.triggers.MappingRequest;
import dev.sluice.engine.AdoptDeadLetter;
import dev.sluice.engine.AdoptRedriven;
import dev.sluice.engine.CheckMoveTarget;
import dev.sluice.engine.CheckRedriveTarget;
import dev.sluice.engine.MessageTransfer;
import dev.sluice.engine.PushRequests;
import dev.sluice.engine.QueueNames;
import java.util.ArrayList;
import java.util.List;

/**
 * The record types a frame's body may be, in the order that gives them their ids: every record of
 * the api package (a test fails when one is missing). The shared records come first, then each
 * action's, by action name. Append only: a new type goes at the end, because a moved type changes
 * the ids of those after it, which the schema hashes would then refuse between nodes of the two
 * versions, all through a rolling upgrade.
 */
public final class RecordTypes {
  private RecordTypes() {}

  public static final List<Class<? extends Record>> API = List.of(
      AccountRegion.class,
      QueueKey.class,
      MessageAttributeValue.class,
      BatchResultErrorEntry.class,
      BatchIdsResponse.class,
      AddPermission.Request.class,
      CancelMessageMoveTask.Request.class,
      CancelMessageMoveTask.Response.class,
      ChangeMessageVisibility.Request.class,
      ChangeMessageVisibilityBatch.Request.class,
      ChangeMessageVisibilityBatch.Entry.class,
      CreateQueue.Request.class,
      CreateQueue.Response.class,
      DeleteMessage.Request.class,
      DeleteMessageBatch.Request.class,
      DeleteMessageBatch.Entry.class,
      DeleteQueue.Request.class,
      GetQueueAttributes.Request.class,
      GetQueueAttributes.Response.class,
      GetQueueUrl.Request.class,
      GetQueueUrl.Response.class,
      ListDeadLetterSourceQueues.Request.class,
      ListDeadLetterSourceQueues.Response.class,
      ListMessageMoveTasks.Request.class,
      ListMessageMoveTasks.Result.class,
      ListMessageMoveTasks.Response.class,
      ListQueueTags.Request.class,
      ListQueueTags.Response.class,
      ListQueues.Request.class,
      ListQueues.Response.class,
      PurgeQueue.Request.class,
      ReceiveMessage.Request.class,
      ReceiveMessage.Message.class,
      ReceiveMessage.Response.class,
      RemovePermission.Request.class,
      SendMessage.Request.class,
      SendMessage.Response.class,
      SendMessageBatch.Request.class,
      SendMessageBatch.Entry.class,
      SendMessageBatch.ResultEntry.class,
      SendMessageBatch.Response.class,
      SetQueueAttributes.Request.class,
      StartMessageMoveTask.Request.class,
      StartMessageMoveTask.Response.class,
      TagQueue.Request.class,
      UntagQueue.Request.class,
      TopicKey.class,
      CreateTopic.Request.class,
      CreateTopic.Response.class,
      DeleteTopic.Request.class,
      ListTopics.Request.class,
      ListTopics.Response.class,
      GetTopicAttributes.Request.class,
      GetTopicAttributes.Response.class,
      SetTopicAttributes.Request.class,
      TagResource.Request.class,
      UntagResource.Request.class,
      ListTagsForResource.Request.class,
      ListTagsForResource.Response.class,
      Subscribe.Request.class,
      Subscribe.Response.class,
      ConfirmSubscription.Request.class,
      ConfirmSubscription.Response.class,
      Unsubscribe.Request.class,
      SubscriptionSummary.class,
      ListSubscriptions.Request.class,
      ListSubscriptions.Response.class,
      ListSubscriptionsByTopic.Request.class,
      GetSubscriptionAttributes.Request.class,
      GetSubscriptionAttributes.Response.class,
      SetSubscriptionAttributes.Request.class,
      Publish.Request.class,
      Publish.Response.class,
      PublishBatch.Request.class,
      PublishBatch.Entry.class,
      PublishBatch.ResultEntry.class,
      PublishBatch.Response.class,
      TopicNotification.class,
      MappingRequest.class,
      MappingRequest.ScalingConfig.class,
      MappingRequest.FilterCriteria.class,
      MappingRequest.TargetConfig.class,
      EventSourceMapping.class,
      EventSourceMapping.Target.class,
      EventSourceMapping.LastError.class,
      EventSourceMapping.Page.class,
      PeekMessages.Request.class,
      PeekMessages.PeekedAttribute.class,
      PeekMessages.Peeked.class,
      PeekMessages.Response.class,
      RelaySend.Request.class,
      RelaySend.Entry.class,
      RelaySend.Response.class,
      RelaySend.Result.class,
      RelaySend.Forget.class,
      RelaySend.Held.class,
      RelaySend.Publish.class,
      RelaySend.Row.class,
      RedeliveryBackoffPolicy.GetRequest.class,
      RedeliveryBackoffPolicy.SetRequest.class,
      RedeliveryBackoffPolicy.Response.class);

  /** What nodes ask each other for themselves (a listing's names), after the api records. Append only. */
  public static final List<Class<? extends Record>> INTERNAL = List.of(
      QueueNamesRequest.class,
      QueueNames.class,
      QueueNames.ShardNames.class,
      MessageTransfer.class,
      AdoptDeadLetter.class,
      AdoptDeadLetter.Adopted.class,
      CheckRedriveTarget.class,
      CheckRedriveTarget.Checked.class,
      PushRequests.VisibilityTimeout.class,
      PushRequests.Seconds.class,
      PushRequests.GiveBack.class,
      CheckMoveTarget.class,
      CheckMoveTarget.Checked.class,
      AdoptRedriven.class,
      AdoptRedriven.Adopted.class);

  /** Every type a frame's body may be: the api records, then the internal ones. */
  public static List<Class<? extends Record>> all() {
    List<Class<? extends Record>> all = new ArrayList<>(API);
    all.addAll(INTERNAL);
    return List.copyOf(all);
  }
}
