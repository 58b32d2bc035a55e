package dev.sluice.protocol;

import dev.sluice.api.MessageAttributeValue;
import java.util.List;
import java.util.Map;

/**
 * A request's members, read by their names in the SQS model (the names the AWS JSON protocol uses,
 * the SQS API reference), whichever wire protocol carried them: the decoders of {@link SqsActions} read
 * through this and so serve both. Absent members read as null; a value that cannot be of the
 * member's type is the wire protocol's own 400 error. Validation of the values themselves belongs
 * to the engine, never here, with one exception that is the wire's business: text that is not
 * well-formed (malformed UTF-8, an unpaired surrogate escape; see {@link Utf8}) is refused here as
 * InvalidParameterValue by every string accessor but {@link #text} and {@link #messageAttributes}.
 */
public interface Members {
  String string(String name);

  /**
   * A string member the engine checks character by character (a message body, group or
   * deduplication id, receipt handle), as decoded: malformed input stays in it as unpaired
   * surrogates, so that the engine refuses it with that member's own error code, and in a batch
   * for its entry alone.
   */
  String text(String name);

  Integer integer(String name);

  List<String> strings(String name);

  Map<String, String> stringMap(String name);

  /**
   * MessageAttributes / MessageSystemAttributes: name → DataType with a string or binary value, as
   * decoded (see {@link #text}): the engine checks names, types and values.
   */
  Map<String, MessageAttributeValue> messageAttributes(String name);

  /** A list of structures (the entries of a batch), each read the same way. */
  List<Members> objects(String name);
}
