package dev.sluice.http;

import dev.sluice.api.Caller;
import dev.sluice.api.PeekMessages;
import dev.sluice.api.QueueKey;
import dev.sluice.api.SqsException;
import dev.sluice.auth.Identity;
import dev.sluice.config.SqsConfig;
import dev.sluice.engine.CallerGone;
import dev.sluice.engine.EngineActions;
import dev.sluice.engine.QueueEngine;
import dev.sluice.engine.QueueUrls;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.Base64;
import java.util.Map;

/**
 * The console's messages routes (design/console.md §2.6): {@code GET queues/{q}/messages} answers a
 * page of the peek ({@link EngineActions#PEEK_MESSAGES}), {@code GET queues/{q}/messages/{key}} one
 * message with its whole body, {@code {q}} being {@code {account}/{region}/{name}}. The caller is the
 * operator acting as the default account in {@code {region}}, as for the console's SQS calls, so the
 * engine checks it as any caller (ReceiveMessage on the queue) and a cluster node forwards it to the
 * queue's owner. Behind the console guard, which this class does not repeat. Stateless.
 */
final class ConsoleMessages implements Handler<RoutingContext> {
  private final QueueEngine engine;
  private final Callers callers;
  private final SqsConfig sqs;

  /** {@code sqs}: the default account (sqs.accountId), which the operator acts as, and the regions served. */
  ConsoleMessages(QueueEngine engine, Callers callers, SqsConfig sqs) {
    this.engine = engine;
    this.callers = callers;
    this.sqs = sqs;
  }

  /** Answers {@code queues/:account/:region/:name/messages[/:key]} from its path parameters and query. */
  @Override
  public void handle(RoutingContext ctx) {
    String region = ctx.pathParam("region");
    Caller caller = callers.ofOperator(ctx.request(), new Identity(null, sqs.accountId(), region));
    ConsoleAnswers.json(ctx, () -> peek(caller, ctx.pathParam("account"), region, ctx.pathParam("name"),
        ctx.pathParam("key"), ctx.queryParams()).map(JsonObject::toBuffer));
  }

  /**
   * The answer's JSON: a page ({@code key} null) or the one message {@code key} names; a failed
   * future carries the SqsException to render (InvalidParameterValue for a bad parameter).
   */
  Future<JsonObject> peek(Caller caller, String account, String region, String name, String key, MultiMap query) {
    PeekMessages.Request request;
    try {
      if (!QueueUrls.isAccountId(account)) {
        throw SqsException.invalidValue(account, "account", "It must be a 12-digit account id.");
      }
      if (!sqs.servesRegionNamed(region)) {
        throw SqsException.invalidValue(region, "region", "It must be a region this server serves, named as AWS"
            + " names regions (us-east-1).");
      }
      String url = QueueUrls.urlOf(caller.baseUrl(), new QueueKey(account, region, name));
      request = key != null ? new PeekMessages.Request(url, null, null, null, key)
          : new PeekMessages.Request(url, number(query, "offset"), number(query, "max"), number(query, "preview"), null);
    } catch (SqsException refused) {
      return Future.failedFuture(refused);
    }
    return engine.run(EngineActions.PEEK_MESSAGES, caller, request, CallerGone.NOT_WATCHED)
        .map(r -> key != null ? peeked(r.messages().get(0)) : page(r));
  }

  private static Integer number(MultiMap query, String parameter) {
    String given = query.get(parameter);
    if (given == null) {
      return null;
    }
    try {
      return Integer.valueOf(given);
    } catch (NumberFormatException notANumber) {
      throw SqsException.invalidValue(given, parameter, "It must be a whole number.");
    }
  }

  static JsonObject page(PeekMessages.Response r) {
    JsonArray messages = new JsonArray();
    r.messages().forEach(m -> messages.add(peeked(m)));
    return new JsonObject().put("messages", messages).put("resident", r.resident())
        .put("durableOnly", r.durableOnly()).put("truncated", r.truncated());
  }

  static JsonObject peeked(PeekMessages.Peeked m) {
    JsonObject attributes = new JsonObject();
    if (m.attributes() != null) {
      for (Map.Entry<String, PeekMessages.PeekedAttribute> e : m.attributes().entrySet()) {
        attributes.put(e.getKey(), attribute(e.getValue()));
      }
    }
    return new JsonObject()
        .put("key", m.key())
        .put("messageId", m.messageId())
        .put("md5OfBody", m.md5OfBody())
        .put("state", m.state().name())
        .put("visibleAt", m.visibleAt())
        .put("receiveCount", m.receiveCount())
        .put("firstReceiveTimestamp", m.firstReceiveTimestamp())
        .put("sentTimestamp", m.sentTimestamp())
        .put("groupId", m.groupId())
        .put("deduplicationId", m.deduplicationId())
        .put("sequenceNumber", m.sequenceNumber())
        .put("deadLetterSourceArn", m.deadLetterSourceArn())
        .put("senderId", m.senderId())
        .put("traceHeader", m.traceHeader())
        .put("body", m.body())
        .put("bodyBytes", m.bodyBytes())
        .put("bodyTruncated", m.bodyTruncated())
        .put("attributes", attributes);
  }

  private static JsonObject attribute(PeekMessages.PeekedAttribute a) {
    JsonObject json = new JsonObject().put("dataType", a.dataType());
    if (a.binaryValue() != null) {
      json.put("binaryValue", Base64.getEncoder().encodeToString(a.binaryValue()));
    } else {
      json.put("stringValue", a.stringValue());
    }
    return json.put("bytes", a.bytes()).put("truncated", a.truncated());
  }
}
