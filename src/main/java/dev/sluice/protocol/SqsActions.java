package dev.sluice.protocol;

import dev.sluice.api.AddPermission;
import dev.sluice.api.BatchIdsResponse;
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
import dev.sluice.api.PurgeQueue;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.RemovePermission;
import dev.sluice.api.SendMessage;
import dev.sluice.api.SendMessageBatch;
import dev.sluice.api.SetQueueAttributes;
import dev.sluice.api.StartMessageMoveTask;
import dev.sluice.api.TagQueue;
import dev.sluice.api.UntagQueue;
import dev.sluice.engine.EngineAction;
import dev.sluice.engine.EngineActions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Every SQS action Sluice serves, registered once for both wire protocols: the members each
 * request record is decoded from (names as in the SQS API reference) and the engine action that
 * answers it ({@link EngineActions}). Members are read in the order of the record's components, so a request wrong in several
 * ways is refused for the same member on both protocols.
 */
public final class SqsActions {
  private SqsActions() {}

  /** The metric tag of a request that names no action of this table: tag values stay a closed set. */
  public static final String UNKNOWN = "Unknown";

  private static final Map<String, SqsAction<?, ?>> BY_NAME = new LinkedHashMap<>();

  // Queues.
  public static final SqsAction<CreateQueue.Request, CreateQueue.Response> CREATE_QUEUE = withOutput("CreateQueue",
      in -> new CreateQueue.Request(in.string("QueueName"), in.stringMap("Attributes"), in.stringMap("tags")),
      EngineActions.CREATE_QUEUE);
  public static final SqsAction<GetQueueUrl.Request, GetQueueUrl.Response> GET_QUEUE_URL = withOutput("GetQueueUrl",
      in -> new GetQueueUrl.Request(in.string("QueueName"), in.string("QueueOwnerAWSAccountId")),
      EngineActions.GET_QUEUE_URL);
  public static final SqsAction<DeleteQueue.Request, Void> DELETE_QUEUE = withoutOutput("DeleteQueue",
      in -> new DeleteQueue.Request(in.string("QueueUrl")),
      EngineActions.DELETE_QUEUE);
  public static final SqsAction<ListQueues.Request, ListQueues.Response> LIST_QUEUES = withOutput("ListQueues",
      in -> new ListQueues.Request(in.string("QueueNamePrefix"), in.integer("MaxResults"), in.string("NextToken")),
      EngineActions.LIST_QUEUES);
  public static final SqsAction<GetQueueAttributes.Request, GetQueueAttributes.Response> GET_QUEUE_ATTRIBUTES =
      withOutput("GetQueueAttributes",
          in -> new GetQueueAttributes.Request(in.string("QueueUrl"), in.strings("AttributeNames")),
          EngineActions.GET_QUEUE_ATTRIBUTES);
  public static final SqsAction<SetQueueAttributes.Request, Void> SET_QUEUE_ATTRIBUTES = withoutOutput(
      "SetQueueAttributes",
      in -> new SetQueueAttributes.Request(in.string("QueueUrl"), in.stringMap("Attributes")),
      EngineActions.SET_QUEUE_ATTRIBUTES);
  public static final SqsAction<TagQueue.Request, Void> TAG_QUEUE = withoutOutput("TagQueue",
      in -> new TagQueue.Request(in.string("QueueUrl"), in.stringMap("Tags")),
      EngineActions.TAG_QUEUE);
  public static final SqsAction<UntagQueue.Request, Void> UNTAG_QUEUE = withoutOutput("UntagQueue",
      in -> new UntagQueue.Request(in.string("QueueUrl"), in.strings("TagKeys")),
      EngineActions.UNTAG_QUEUE);
  public static final SqsAction<ListQueueTags.Request, ListQueueTags.Response> LIST_QUEUE_TAGS = withOutput(
      "ListQueueTags",
      in -> new ListQueueTags.Request(in.string("QueueUrl")),
      EngineActions.LIST_QUEUE_TAGS);
  public static final SqsAction<PurgeQueue.Request, Void> PURGE_QUEUE = withoutOutput("PurgeQueue",
      in -> new PurgeQueue.Request(in.string("QueueUrl")),
      EngineActions.PURGE_QUEUE);
  public static final SqsAction<AddPermission.Request, Void> ADD_PERMISSION = withoutOutput("AddPermission",
      in -> new AddPermission.Request(
          in.string("QueueUrl"), in.string("Label"), in.strings("AWSAccountIds"), in.strings("Actions")),
      EngineActions.ADD_PERMISSION);
  public static final SqsAction<RemovePermission.Request, Void> REMOVE_PERMISSION = withoutOutput("RemovePermission",
      in -> new RemovePermission.Request(in.string("QueueUrl"), in.string("Label")),
      EngineActions.REMOVE_PERMISSION);

  // Messages.
  public static final SqsAction<SendMessage.Request, SendMessage.Response> SEND_MESSAGE = withOutput("SendMessage",
      in -> new SendMessage.Request(
          in.string("QueueUrl"), in.text("MessageBody"), in.integer("DelaySeconds"),
          in.messageAttributes("MessageAttributes"), in.messageAttributes("MessageSystemAttributes"),
          in.text("MessageDeduplicationId"), in.text("MessageGroupId")),
      EngineActions.SEND_MESSAGE);
  public static final SqsAction<SendMessageBatch.Request, SendMessageBatch.Response> SEND_MESSAGE_BATCH = withOutput(
      "SendMessageBatch",
      in -> new SendMessageBatch.Request(in.string("QueueUrl"), entries(in, x -> new SendMessageBatch.Entry(
          x.string("Id"), x.text("MessageBody"), x.integer("DelaySeconds"),
          x.messageAttributes("MessageAttributes"), x.messageAttributes("MessageSystemAttributes"),
          x.text("MessageDeduplicationId"), x.text("MessageGroupId")))),
      EngineActions.SEND_MESSAGE_BATCH);
  public static final SqsAction<ReceiveMessage.Request, ReceiveMessage.Response> RECEIVE_MESSAGE = withOutput(
      "ReceiveMessage",
      in -> new ReceiveMessage.Request(
          in.string("QueueUrl"), in.strings("AttributeNames"), in.strings("MessageSystemAttributeNames"),
          in.strings("MessageAttributeNames"), in.integer("MaxNumberOfMessages"), in.integer("VisibilityTimeout"),
          in.integer("WaitTimeSeconds"), in.string("ReceiveRequestAttemptId")),
      EngineActions.RECEIVE_MESSAGE);
  public static final SqsAction<DeleteMessage.Request, Void> DELETE_MESSAGE = withoutOutput("DeleteMessage",
      in -> new DeleteMessage.Request(in.string("QueueUrl"), in.text("ReceiptHandle")),
      EngineActions.DELETE_MESSAGE);
  public static final SqsAction<DeleteMessageBatch.Request, BatchIdsResponse> DELETE_MESSAGE_BATCH = withOutput(
      "DeleteMessageBatch",
      in -> new DeleteMessageBatch.Request(in.string("QueueUrl"), entries(in,
          x -> new DeleteMessageBatch.Entry(x.string("Id"), x.text("ReceiptHandle")))),
      EngineActions.DELETE_MESSAGE_BATCH);
  public static final SqsAction<ChangeMessageVisibility.Request, Void> CHANGE_MESSAGE_VISIBILITY = withoutOutput(
      "ChangeMessageVisibility",
      in -> new ChangeMessageVisibility.Request(
          in.string("QueueUrl"), in.text("ReceiptHandle"), in.integer("VisibilityTimeout")),
      EngineActions.CHANGE_MESSAGE_VISIBILITY);
  public static final SqsAction<ChangeMessageVisibilityBatch.Request, BatchIdsResponse>
      CHANGE_MESSAGE_VISIBILITY_BATCH = withOutput("ChangeMessageVisibilityBatch",
          in -> new ChangeMessageVisibilityBatch.Request(in.string("QueueUrl"), entries(in,
              x -> new ChangeMessageVisibilityBatch.Entry(
                  x.string("Id"), x.text("ReceiptHandle"), x.integer("VisibilityTimeout")))),
          EngineActions.CHANGE_MESSAGE_VISIBILITY_BATCH);

  // Dead-letter queues.
  public static final SqsAction<ListDeadLetterSourceQueues.Request, ListDeadLetterSourceQueues.Response>
      LIST_DEAD_LETTER_SOURCE_QUEUES = withOutput("ListDeadLetterSourceQueues",
          in -> new ListDeadLetterSourceQueues.Request(
              in.string("QueueUrl"), in.integer("MaxResults"), in.string("NextToken")),
          EngineActions.LIST_DEAD_LETTER_SOURCE_QUEUES);
  public static final SqsAction<StartMessageMoveTask.Request, StartMessageMoveTask.Response> START_MESSAGE_MOVE_TASK =
      withOutput("StartMessageMoveTask",
          in -> new StartMessageMoveTask.Request(
              in.string("SourceArn"), in.string("DestinationArn"), in.integer("MaxNumberOfMessagesPerSecond")),
          EngineActions.START_MESSAGE_MOVE_TASK);
  public static final SqsAction<ListMessageMoveTasks.Request, ListMessageMoveTasks.Response> LIST_MESSAGE_MOVE_TASKS =
      withOutput("ListMessageMoveTasks",
          in -> new ListMessageMoveTasks.Request(in.string("SourceArn"), in.integer("MaxResults")),
          EngineActions.LIST_MESSAGE_MOVE_TASKS);
  public static final SqsAction<CancelMessageMoveTask.Request, CancelMessageMoveTask.Response>
      CANCEL_MESSAGE_MOVE_TASK = withOutput("CancelMessageMoveTask",
          in -> new CancelMessageMoveTask.Request(in.string("TaskHandle")),
          EngineActions.CANCEL_MESSAGE_MOVE_TASK);

  /** The action of that name, or null. */
  public static SqsAction<?, ?> named(String name) {
    return name == null ? null : BY_NAME.get(name);
  }

  /** Every action, in the order of the SQS API reference. */
  public static Iterable<SqsAction<?, ?>> all() {
    return BY_NAME.values();
  }

  /** The tag a request is counted under: its action's name, else {@link #UNKNOWN}. */
  public static String metricName(SqsAction<?, ?> action) {
    return action == null ? UNKNOWN : action.name();
  }

  private static <Q, R> SqsAction<Q, R> withOutput(String name, Function<Members, Q> decoder, EngineAction<Q, R> call) {
    return register(new SqsAction<>(name, decoder, call, true));
  }

  private static <Q> SqsAction<Q, Void> withoutOutput(String name, Function<Members, Q> decoder,
      EngineAction<Q, Void> call) {
    return register(new SqsAction<>(name, decoder, call, false));
  }

  private static <Q, R> SqsAction<Q, R> register(SqsAction<Q, R> action) {
    BY_NAME.put(action.name(), action);
    return action;
  }

  /** The {@code Entries} of a batch request, each decoded by {@code entry}; null when absent. */
  private static <T> List<T> entries(Members in, Function<Members, T> entry) {
    List<Members> entries = in.objects("Entries");
    return entries == null ? null : entries.stream().map(entry).toList();
  }
}
