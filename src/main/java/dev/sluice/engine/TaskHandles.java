package dev.sluice.engine;

import dev.sluice.api.SqsException;
import dev.sluice.model.JsonText;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Move task handles: opaque to clients, they carry the task id and its dead-letter queue's ARN
 * (base64url of a small JSON object), so a cancel finds the shard without a lookup. Stateless.
 */
final class TaskHandles {
  private TaskHandles() {}

  record Decoded(String taskId, String sourceArn) {}

  static String encode(String taskId, String sourceArn) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("taskId", taskId);
    m.put("sourceArn", sourceArn);
    return Base64.getUrlEncoder().withoutPadding()
        .encodeToString(JsonText.write(m).getBytes(StandardCharsets.UTF_8));
  }

  /** The handle's content; InvalidParameterValue when it is not a handle (AWS API reference: StartMessageMoveTask). */
  static Decoded decode(String handle) {
    try {
      Map<String, Object> m = JsonText.parseObject(
          new String(Base64.getUrlDecoder().decode(handle), StandardCharsets.UTF_8));
      if (m != null && m.get("taskId") instanceof String id && m.get("sourceArn") instanceof String arn) {
        return new Decoded(id, arn);
      }
    } catch (IllegalArgumentException notBase64) {
      // falls through to the error below
    }
    throw SqsException.invalidParameter("Value for parameter TaskHandle is invalid.");
  }
}
