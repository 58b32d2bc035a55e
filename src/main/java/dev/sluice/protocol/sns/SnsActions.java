package dev.sluice.protocol.sns;

import dev.sluice.api.BatchResultErrorEntry;
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
import dev.sluice.api.topics.UntagResource;
import dev.sluice.engine.EngineActions;
import dev.sluice.protocol.query.XmlWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Every SNS action Sluice serves (SNS API reference, 2010-03-31): member names as the SDKs send them,
 * the engine action that answers, and the members of its result. The rest of SNS's actions are
 * known by name, so that a client is told what Sluice does not offer rather than that the action
 * does not exist.
 */
public final class SnsActions {
  private SnsActions() {}

  /** The metric tag of a request that names no action of this table. */
  static final String UNKNOWN = "Unknown";

  private static final Map<String, SnsAction<?, ?>> BY_NAME = new LinkedHashMap<>();

  static {
    add("CreateTopic", in -> new CreateTopic.Request(in.string("Name"), in.map("Attributes"), in.tags("Tags")),
        EngineActions.CREATE_TOPIC, (r, out) -> out.element("TopicArn", r.topicArn()));
    add("DeleteTopic", in -> new DeleteTopic.Request(in.string("TopicArn")), EngineActions.DELETE_TOPIC, null);
    add("ListTopics", in -> new ListTopics.Request(in.string("NextToken")), EngineActions.LIST_TOPICS, (r, out) -> {
      out.open("Topics");
      for (String arn : r.topicArns()) {
        out.open("member").element("TopicArn", arn).close("member");
      }
      out.close("Topics").elementIf("NextToken", r.nextToken());
    });
    add("GetTopicAttributes", in -> new GetTopicAttributes.Request(in.string("TopicArn")),
        EngineActions.GET_TOPIC_ATTRIBUTES, (r, out) -> entries(out, "Attributes", r.attributes()));
    add("SetTopicAttributes", in -> new SetTopicAttributes.Request(in.string("TopicArn"), in.string("AttributeName"),
        in.string("AttributeValue")), EngineActions.SET_TOPIC_ATTRIBUTES, null);
    add("TagResource", in -> new TagResource.Request(in.string("ResourceArn"), in.tags("Tags")),
        EngineActions.TAG_RESOURCE, (r, out) -> { });
    add("UntagResource", in -> new UntagResource.Request(in.string("ResourceArn"), in.strings("TagKeys")),
        EngineActions.UNTAG_RESOURCE, (r, out) -> { });
    add("ListTagsForResource", in -> new ListTagsForResource.Request(in.string("ResourceArn")),
        EngineActions.LIST_TAGS_FOR_RESOURCE, (r, out) -> {
          out.open("Tags");
          r.tags().forEach((k, v) -> out.open("member").element("Key", k).element("Value", v).close("member"));
          out.close("Tags");
        });
    add("Subscribe", in -> new Subscribe.Request(in.string("TopicArn"), in.string("Protocol"), in.string("Endpoint"),
        in.map("Attributes"), in.bool("ReturnSubscriptionArn")), EngineActions.SUBSCRIBE,
        (r, out) -> out.element("SubscriptionArn", r.subscriptionArn()));
    add("ConfirmSubscription", in -> new ConfirmSubscription.Request(in.string("TopicArn"), in.string("Token"),
        in.string("AuthenticateOnUnsubscribe")), EngineActions.CONFIRM_SUBSCRIPTION,
        (r, out) -> out.element("SubscriptionArn", r.subscriptionArn()));
    add("Unsubscribe", in -> new Unsubscribe.Request(in.string("SubscriptionArn")), EngineActions.UNSUBSCRIBE, null);
    add("ListSubscriptions", in -> new ListSubscriptions.Request(in.string("NextToken")),
        EngineActions.LIST_SUBSCRIPTIONS, SnsActions::subscriptions);
    add("ListSubscriptionsByTopic", in -> new ListSubscriptionsByTopic.Request(in.string("TopicArn"),
        in.string("NextToken")), EngineActions.LIST_SUBSCRIPTIONS_BY_TOPIC, SnsActions::subscriptions);
    add("GetSubscriptionAttributes", in -> new GetSubscriptionAttributes.Request(in.string("SubscriptionArn")),
        EngineActions.GET_SUBSCRIPTION_ATTRIBUTES, (r, out) -> entries(out, "Attributes", r.attributes()));
    add("SetSubscriptionAttributes", in -> new SetSubscriptionAttributes.Request(in.string("SubscriptionArn"),
        in.string("AttributeName"), in.string("AttributeValue")), EngineActions.SET_SUBSCRIPTION_ATTRIBUTES, null);
    add("Publish", in -> new Publish.Request(in.string("TopicArn"), in.string("TargetArn"), in.string("PhoneNumber"),
        in.string("Message"), in.string("Subject"), in.string("MessageStructure"),
        in.messageAttributes("MessageAttributes"), in.string("MessageGroupId"), in.string("MessageDeduplicationId")),
        EngineActions.PUBLISH, (r, out) -> out.element("MessageId", r.messageId())
            .elementIf("SequenceNumber", r.sequenceNumber()));
    add("PublishBatch", in -> new PublishBatch.Request(in.string("TopicArn"), batchEntries(in)),
        EngineActions.PUBLISH_BATCH, (r, out) -> {
          out.open("Successful");
          for (PublishBatch.ResultEntry e : r.successful()) {
            out.open("member").element("Id", e.id()).element("MessageId", e.messageId())
                .elementIf("SequenceNumber", e.sequenceNumber()).close("member");
          }
          out.close("Successful").open("Failed");
          for (BatchResultErrorEntry e : r.failed()) {
            out.open("member").element("Id", e.id()).element("Code", e.code()).element("Message", e.message())
                .element("SenderFault", e.senderFault()).close("member");
          }
          out.close("Failed");
        });
  }

  private static List<PublishBatch.Entry> batchEntries(SnsReader in) {
    List<SnsReader> entries = in.entries("PublishBatchRequestEntries");
    if (entries == null) {
      return null;
    }
    return entries.stream().map(e -> new PublishBatch.Entry(e.string("Id"), e.string("Message"), e.string("Subject"),
        e.string("MessageStructure"), e.messageAttributes("MessageAttributes"), e.string("MessageGroupId"),
        e.string("MessageDeduplicationId"))).toList();
  }

  private static void subscriptions(ListSubscriptions.Response r, XmlWriter out) {
    out.open("Subscriptions");
    for (SubscriptionSummary s : r.subscriptions()) {
      out.open("member").element("SubscriptionArn", s.subscriptionArn()).element("Owner", s.owner())
          .element("Protocol", s.protocol()).element("Endpoint", s.endpoint()).element("TopicArn", s.topicArn())
          .close("member");
    }
    out.close("Subscriptions").elementIf("NextToken", r.nextToken());
  }

  /** SNS actions Sluice does not serve (yet, or at all: SMS, mobile push, data protection). */
  private static final Set<String> NOT_SERVED = Set.of(
      "AddPermission", "RemovePermission", "CheckIfPhoneNumberIsOptedOut", "CreatePlatformApplication", "CreatePlatformEndpoint",
      "CreateSMSSandboxPhoneNumber", "DeleteEndpoint", "DeletePlatformApplication", "DeleteSMSSandboxPhoneNumber",
      "GetDataProtectionPolicy", "GetEndpointAttributes", "GetPlatformApplicationAttributes", "GetSMSAttributes",
      "GetSMSSandboxAccountStatus", "ListEndpointsByPlatformApplication", "ListOriginationNumbers",
      "ListPhoneNumbersOptedOut", "ListPlatformApplications", "ListSMSSandboxPhoneNumbers", "OptInPhoneNumber",
      "PutDataProtectionPolicy", "SetEndpointAttributes", "SetPlatformApplicationAttributes", "SetSMSAttributes",
      "VerifySMSSandboxPhoneNumber");

  /** The action named {@code name}, or null. */
  static SnsAction<?, ?> named(String name) {
    return BY_NAME.get(name);
  }

  /** Whether {@code name} is an SNS action at all, served here or not. */
  public static boolean isSnsAction(String name) {
    return BY_NAME.containsKey(name) || NOT_SERVED.contains(name);
  }

  /** Whether {@code name} is an SNS action Sluice does not serve. */
  static boolean isNotServed(String name) {
    return NOT_SERVED.contains(name);
  }

  /** The metric tag for {@code action}: its name, or {@link #UNKNOWN}. */
  static String metricName(SnsAction<?, ?> action) {
    return action == null ? UNKNOWN : action.name();
  }

  private static <Q, R> void add(String name, Function<SnsReader, Q> decoder, dev.sluice.engine.EngineAction<Q, R> call,
      BiConsumer<R, XmlWriter> result) {
    BY_NAME.put(name, new SnsAction<>(name, decoder, call, result));
  }

  private static void entries(XmlWriter out, String name, Map<String, String> map) {
    out.open(name);
    map.forEach((k, v) -> out.open("entry").element("key", k).element("value", v).close("entry"));
    out.close(name);
  }
}
