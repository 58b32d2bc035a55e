package dev.sluice.protocol;

import dev.sluice.api.MessageAttributeValue;
import java.util.List;
import java.util.Map;

/**
 * A request's members, read by their names in the SQS model (the names the AWS JSON protocol uses,
 * sqs-reference §2), whichever wire protocol carried them: the decoders of {@link SqsActions} read
 * through this and so serve both. Absent members read as null; a value that cannot be of the
 * member's type is the wire protocol's own 400 error. Validation of the values themselves belongs
 * to the engine, never here.
 */
public interface Members {
  String string(String name);

  Integer integer(String name);

  List<String> strings(String name);

  Map<String, String> stringMap(String name);

  /** MessageAttributes / MessageSystemAttributes: name → DataType with a string or binary value. */
  Map<String, MessageAttributeValue> messageAttributes(String name);

  /** A list of structures (the entries of a batch), each read the same way. */
  List<Members> objects(String name);
}
