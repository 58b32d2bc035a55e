package dev.sluice.model;

import dev.sluice.api.SqsException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A dead-letter queue's RedriveAllowPolicy (AWS API reference: SetQueueAttributes; the SQS dead-letter queues
 * guide): which source queues may
 * name it in their RedrivePolicy. Absent means allowAll.
 */
public record RedriveAllowPolicy(String redrivePermission, List<String> sourceQueueArns) {
  public static final String NAME = "RedriveAllowPolicy";
  static final int MAX_SOURCE_QUEUES = 10;

  public static RedriveAllowPolicy parse(String value) {
    Map<String, Object> json = JsonText.parseObject(value);
    if (json == null) {
      throw invalid(value, "Redrive allow policy is not a valid JSON map.");
    }
    for (String key : json.keySet()) {
      if (!key.equals("redrivePermission") && !key.equals("sourceQueueArns")) {
        throw invalid(value, "Only following attributes are supported: [redrivePermission, sourceQueueArns].");
      }
    }
    Object permission = json.get("redrivePermission");
    if (!"allowAll".equals(permission) && !"denyAll".equals(permission) && !"byQueue".equals(permission)) {
      throw invalid(value, "Value of redrivePermission must be one of allowAll, denyAll, byQueue.");
    }
    Object arns = json.get("sourceQueueArns");
    if (!permission.equals("byQueue")) {
      if (arns != null) {
        throw invalid(value, "sourceQueueArns can be specified only when redrivePermission is byQueue.");
      }
      return new RedriveAllowPolicy((String) permission, List.of());
    }
    if (!(arns instanceof List<?> list) || list.isEmpty() || list.size() > MAX_SOURCE_QUEUES
        || !list.stream().allMatch(a -> a instanceof String s && !s.isEmpty())) {
      throw invalid(value, "sourceQueueArns must list 1 to 10 queue ARNs when redrivePermission is byQueue.");
    }
    return new RedriveAllowPolicy("byQueue", list.stream().map(String.class::cast).toList());
  }

  private static SqsException invalid(String value, String reason) {
    return SqsException.invalidValue(value, NAME, reason);
  }

  /** Whether a queue with this policy may be the dead-letter queue of {@code sourceArn}. */
  public boolean allows(String sourceArn) {
    return switch (redrivePermission) {
      case "allowAll" -> true;
      case "denyAll" -> false;
      default -> sourceQueueArns.contains(sourceArn);
    };
  }

  public String toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("redrivePermission", redrivePermission);
    if (redrivePermission.equals("byQueue")) {
      m.put("sourceQueueArns", sourceQueueArns);
    }
    return JsonText.write(m);
  }
}
