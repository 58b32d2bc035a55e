package dev.sluice.protocol.lambda;

import dev.sluice.api.triggers.LambdaException;
import dev.sluice.api.triggers.MappingRequest;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the JSON body of CreateEventSourceMapping and UpdateEventSourceMapping (AWS Lambda API
 * reference) into a {@link MappingRequest}. A key Lambda takes only for streams or brokers is
 * refused as Lambda refuses it for an SQS source; any other key Sluice does not implement is
 * refused by name rather than ignored, so that no setting is silently without effect. Stateless.
 */
public final class MappingRequests {
  static final Set<String> KEYS = Set.of("EventSourceArn", "FunctionName", "Enabled", "BatchSize",
      "MaximumBatchingWindowInSeconds", "FunctionResponseTypes", "ScalingConfig", "FilterCriteria", "TargetConfig");
  /** Keys of stream and broker sources (AWS: "StartingPosition is not valid for SQS event sources."). */
  static final Set<String> NOT_FOR_SQS = Set.of("StartingPosition", "StartingPositionTimestamp",
      "ParallelizationFactor", "BisectBatchOnFunctionError", "MaximumRetryAttempts", "MaximumRecordAgeInSeconds",
      "DestinationConfig", "TumblingWindowInSeconds", "Topics", "Queues", "SourceAccessConfigurations");
  static final Set<String> TARGET_KEYS = Set.of("Protocol", "TimeoutSeconds", "Headers", "VerifyTls",
      "MaxConcurrentRequests");

  private MappingRequests() {}

  /** The request {@code body} gives; an empty body is an empty request. */
  public static MappingRequest read(String body) {
    JsonObject json;
    try {
      json = body == null || body.isBlank() ? new JsonObject() : new JsonObject(body);
    } catch (DecodeException | ClassCastException notAnObject) {
      throw LambdaException.invalidValue("The request body is not a JSON object.");
    }
    for (String key : json.fieldNames()) {
      if (NOT_FOR_SQS.contains(key)) {
        throw LambdaException.invalidValue(key + " is not valid for SQS event sources.");
      }
      if (!KEYS.contains(key)) {
        throw LambdaException.invalidValue(key + " is not supported by Sluice.");
      }
    }
    return new MappingRequest(string(json, "EventSourceArn"), string(json, "FunctionName"),
        bool(json, "Enabled"), integer(json, "BatchSize"), integer(json, "MaximumBatchingWindowInSeconds"),
        strings(json, "FunctionResponseTypes"), scaling(json), filters(json), target(json));
  }

  private static MappingRequest.ScalingConfig scaling(JsonObject json) {
    JsonObject scaling = object(json, "ScalingConfig");
    if (scaling == null) {
      return null;
    }
    for (String key : scaling.fieldNames()) {
      if (!key.equals("MaximumConcurrency")) {
        throw LambdaException.invalidValue("ScalingConfig." + key + " is not supported by Sluice.");
      }
    }
    return new MappingRequest.ScalingConfig(integer(scaling, "MaximumConcurrency"));
  }

  private static MappingRequest.FilterCriteria filters(JsonObject json) {
    JsonObject criteria = object(json, "FilterCriteria");
    if (criteria == null) {
      return null;
    }
    Object filters = criteria.getValue("Filters");
    List<String> patterns = new ArrayList<>();
    if (filters instanceof JsonArray list) {
      for (Object f : list) {
        Object pattern = f instanceof JsonObject o ? o.getValue("Pattern") : null;
        // Lambda answers every malformed filter with the one text the pattern check gives.
        patterns.add(pattern instanceof String s ? s : null);
      }
    } else if (filters != null) {
      throw LambdaException.invalidValue("Invalid filter pattern definition.");
    }
    return new MappingRequest.FilterCriteria(patterns);
  }

  private static MappingRequest.TargetConfig target(JsonObject json) {
    JsonObject target = object(json, "TargetConfig");
    if (target == null) {
      return null;
    }
    for (String key : target.fieldNames()) {
      if (!TARGET_KEYS.contains(key)) {
        throw LambdaException.invalidValue("TargetConfig." + key + " is not supported by Sluice.");
      }
    }
    Map<String, String> headers = null;
    JsonObject given = object(target, "Headers");
    if (given != null) {
      headers = new LinkedHashMap<>();
      for (String name : given.fieldNames()) {
        if (!(given.getValue(name) instanceof String value)) {
          throw LambdaException.invalidValue("TargetConfig.Headers: the value of " + name + " must be a string.");
        }
        headers.put(name, value);
      }
    }
    return new MappingRequest.TargetConfig(string(target, "Protocol"), integer(target, "TimeoutSeconds"), headers,
        bool(target, "VerifyTls"), integer(target, "MaxConcurrentRequests"));
  }

  private static String string(JsonObject json, String key) {
    return typed(json, key, String.class, "a string");
  }

  private static Boolean bool(JsonObject json, String key) {
    return typed(json, key, Boolean.class, "true or false");
  }

  private static Integer integer(JsonObject json, String key) {
    Object v = json.getValue(key);
    if (v == null) {
      return null;
    }
    if ((v instanceof Integer || v instanceof Long) && ((Number) v).longValue() == ((Number) v).intValue()) {
      return ((Number) v).intValue();
    }
    throw wrongType(key, "a whole number");
  }

  private static List<String> strings(JsonObject json, String key) {
    Object v = json.getValue(key);
    if (v == null) {
      return null;
    }
    if (v instanceof JsonArray list && list.stream().allMatch(String.class::isInstance)) {
      return list.stream().map(String.class::cast).toList();
    }
    throw wrongType(key, "a list of strings");
  }

  private static JsonObject object(JsonObject json, String key) {
    return typed(json, key, JsonObject.class, "an object");
  }

  /** The value of {@code key}, null when absent; InvalidParameterValue naming {@code what} it must be otherwise. */
  private static <T> T typed(JsonObject json, String key, Class<T> type, String what) {
    Object v = json.getValue(key);
    if (v == null || type.isInstance(v)) {
      return type.cast(v);
    }
    throw wrongType(key, what);
  }

  private static LambdaException wrongType(String key, String what) {
    return LambdaException.invalidValue(key + " must be " + what + ".");
  }
}
