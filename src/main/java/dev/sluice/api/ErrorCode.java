package dev.sluice.api;

/**
 * The one table of every error Sluice can answer with: the SQS shape name (JSON {@code __type}),
 * the legacy Query code (Query {@code <Code>} and the JSON {@code x-amzn-query-error} header) and
 * the HTTP status. Values follow the SQS common errors; each wire protocol renders them in one place.
 */
public enum ErrorCode {
  QUEUE_DOES_NOT_EXIST("QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue", 400),
  QUEUE_NAME_EXISTS("QueueNameExists", "QueueAlreadyExists", 400),
  QUEUE_DELETED_RECENTLY("QueueDeletedRecently", "AWS.SimpleQueueService.QueueDeletedRecently", 400),
  INVALID_PARAMETER_VALUE("InvalidParameterValueException", "InvalidParameterValue", 400, false),
  MISSING_PARAMETER("MissingRequiredParameterException", "MissingParameter", 400, false),
  INVALID_ATTRIBUTE_NAME("InvalidAttributeName", "InvalidAttributeName", 400),
  INVALID_ATTRIBUTE_VALUE("InvalidAttributeValue", "InvalidAttributeValue", 400),
  INVALID_MESSAGE_CONTENTS("InvalidMessageContents", "InvalidMessageContents", 400),
  // 404 per the SQS Smithy model that the SDKs are generated from; clients map on the code, not the status.
  RECEIPT_HANDLE_IS_INVALID("ReceiptHandleIsInvalid", "ReceiptHandleIsInvalid", 404),
  MESSAGE_NOT_INFLIGHT("MessageNotInflight", "AWS.SimpleQueueService.MessageNotInflight", 400),
  TOO_MANY_ENTRIES_IN_BATCH_REQUEST(
      "TooManyEntriesInBatchRequest", "AWS.SimpleQueueService.TooManyEntriesInBatchRequest", 400),
  EMPTY_BATCH_REQUEST("EmptyBatchRequest", "AWS.SimpleQueueService.EmptyBatchRequest", 400),
  BATCH_ENTRY_IDS_NOT_DISTINCT(
      "BatchEntryIdsNotDistinct", "AWS.SimpleQueueService.BatchEntryIdsNotDistinct", 400),
  INVALID_BATCH_ENTRY_ID("InvalidBatchEntryId", "AWS.SimpleQueueService.InvalidBatchEntryId", 400),
  BATCH_REQUEST_TOO_LONG("BatchRequestTooLong", "AWS.SimpleQueueService.BatchRequestTooLong", 400),
  PURGE_QUEUE_IN_PROGRESS("PurgeQueueInProgress", "AWS.SimpleQueueService.PurgeQueueInProgress", 403),
  OVER_LIMIT("OverLimit", "OverLimit", 403),
  RESOURCE_NOT_FOUND("ResourceNotFoundException", "ResourceNotFoundException", 404),
  UNSUPPORTED_OPERATION("UnsupportedOperation", "AWS.SimpleQueueService.UnsupportedOperation", 400),
  /** Retryable by every SDK (it is in their throttling-code lists); used for Sluice's own bounds. */
  REQUEST_THROTTLED("RequestThrottled", "RequestThrottled", 403),
  INVALID_ADDRESS("InvalidAddress", "InvalidAddress", 404),
  ACCESS_DENIED("AccessDeniedException", "AccessDenied", 403, false),
  /** SigV4: the access key id is not one of the configured credentials. */
  INVALID_CLIENT_TOKEN_ID("InvalidClientTokenId", "InvalidClientTokenId", 403, false),
  /** SigV4: the signature is wrong, or its date is more than 15 minutes off. */
  SIGNATURE_DOES_NOT_MATCH("SignatureDoesNotMatch", "SignatureDoesNotMatch", 403, false),
  /** SigV4: no Authorization header and no presigned query parameters. */
  MISSING_AUTHENTICATION_TOKEN("MissingAuthenticationToken", "MissingAuthenticationToken", 403, false),
  /** SigV4: an Authorization header or presigned query that lacks one of its parts. */
  INCOMPLETE_SIGNATURE("IncompleteSignature", "IncompleteSignature", 400, false),
  /** Query protocol only: an unknown or misplaced Action. */
  INVALID_ACTION("InvalidAction", "InvalidAction", 400, false),
  /** AWS JSON protocol: a body that is not JSON or a member of the wrong JSON type. */
  SERIALIZATION_EXCEPTION("SerializationException", "SerializationException", 400, false),
  INTERNAL_FAILURE("InternalFailure", "InternalFailure", 500, false),
  SERVICE_UNAVAILABLE("ServiceUnavailable", "ServiceUnavailable", 503, false),
  /** The console's peek by key (design/console.md §2.6): the message is gone. Not an SQS error. */
  MESSAGE_NOT_FOUND("MessageNotFound", "MessageNotFound", 404, false),
  /** The console: every live-update stream (console.maxStreams) is open already; answered with Retry-After. */
  TOO_MANY_STREAMS("TooManyStreams", "TooManyStreams", 503, false);

  private static final String MODELLED_NAMESPACE = "com.amazonaws.sqs#";
  private static final String GENERIC_NAMESPACE = "com.amazon.coral.service#";

  private final String shapeName;
  private final String queryCode;
  private final int httpStatus;
  private final boolean modelled;

  ErrorCode(String shapeName, String queryCode, int httpStatus) {
    this(shapeName, queryCode, httpStatus, true);
  }

  ErrorCode(String shapeName, String queryCode, int httpStatus, boolean modelled) {
    this.shapeName = shapeName;
    this.queryCode = queryCode;
    this.httpStatus = httpStatus;
    this.modelled = modelled;
  }

  /** The JSON {@code __type}: modelled shapes live in the SQS namespace, generic ones in coral's. */
  public String jsonType() {
    return (modelled ? MODELLED_NAMESPACE : GENERIC_NAMESPACE) + shapeName;
  }

  public String shapeName() {
    return shapeName;
  }

  public String queryCode() {
    return queryCode;
  }

  public int httpStatus() {
    return httpStatus;
  }

  /** Who is to blame: every client error is the Sender's; 5xx are the Receiver's (the AWS JSON protocol guide). */
  public boolean senderFault() {
    return httpStatus < 500;
  }
}
