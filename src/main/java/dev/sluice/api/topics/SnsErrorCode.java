package dev.sluice.api.topics;

import dev.sluice.api.ErrorCode;

/**
 * The one table of the errors the SNS API answers with: the Query code, the HTTP status and whose
 * fault it is (SNS API reference, the Errors section of each action and the common errors). The
 * SNS Query protocol renders them in one place; SDKs map on the code.
 */
public enum SnsErrorCode {
  INVALID_PARAMETER("InvalidParameter", 400),
  INVALID_PARAMETER_VALUE("InvalidParameterValue", 400),
  /** A member the action requires is missing (SNS answers ValidationError, as the Smithy model checks it). */
  VALIDATION_ERROR("ValidationError", 400),
  /** A message attribute SNS cannot take (its name, type or value). */
  PARAMETER_VALUE_INVALID("ParameterValueInvalid", 400),
  INVALID_ACTION("InvalidAction", 400),
  MISSING_ACTION("MissingAction", 400),
  NOT_FOUND("NotFound", 404),
  AUTHORIZATION_ERROR("AuthorizationError", 403),
  TOPIC_LIMIT_EXCEEDED("TopicLimitExceeded", 403),
  SUBSCRIPTION_LIMIT_EXCEEDED("SubscriptionLimitExceeded", 403),
  FILTER_POLICY_LIMIT_EXCEEDED("FilterPolicyLimitExceeded", 403),
  TAG_LIMIT_EXCEEDED("TagLimitExceeded", 400),
  TAG_POLICY("TagPolicy", 400),
  RESOURCE_NOT_FOUND("ResourceNotFound", 404),
  TOO_MANY_ENTRIES_IN_BATCH_REQUEST("TooManyEntriesInBatchRequest", 400),
  EMPTY_BATCH_REQUEST("EmptyBatchRequest", 400),
  BATCH_ENTRY_IDS_NOT_DISTINCT("BatchEntryIdsNotDistinct", 400),
  INVALID_BATCH_ENTRY_ID("InvalidBatchEntryId", 400),
  BATCH_REQUEST_TOO_LONG("BatchRequestTooLong", 400),
  /** Sluice's own bounds (memory, writer backlog); status 429, which every SDK retries. */
  THROTTLED("Throttled", 429),
  /** SigV4: the access key id is not one of the configured credentials. */
  INVALID_CLIENT_TOKEN_ID("InvalidClientTokenId", 403),
  SIGNATURE_DOES_NOT_MATCH("SignatureDoesNotMatch", 403),
  MISSING_AUTHENTICATION_TOKEN("MissingAuthenticationToken", 403),
  INCOMPLETE_SIGNATURE("IncompleteSignature", 400),
  INTERNAL_ERROR("InternalError", 500, false),
  /** Not serving now (a shard loading, handed over, PostgreSQL away); retried by every SDK on its status. */
  SERVICE_UNAVAILABLE("ServiceUnavailable", 503, false);

  private final String code;
  private final int httpStatus;
  private final boolean senderFault;

  SnsErrorCode(String code, int httpStatus) {
    this(code, httpStatus, true);
  }

  SnsErrorCode(String code, int httpStatus, boolean senderFault) {
    this.code = code;
    this.httpStatus = httpStatus;
    this.senderFault = senderFault;
  }

  /**
   * SNS's code for a failure raised by what SNS shares with SQS (signatures, the serving gate, the
   * memory and writer bounds, a bug): the one translation, used wherever an SQS error meets SNS.
   */
  public static SnsErrorCode of(ErrorCode code) {
    return switch (code) {
      case INVALID_CLIENT_TOKEN_ID -> INVALID_CLIENT_TOKEN_ID;
      case SIGNATURE_DOES_NOT_MATCH -> SIGNATURE_DOES_NOT_MATCH;
      case MISSING_AUTHENTICATION_TOKEN -> MISSING_AUTHENTICATION_TOKEN;
      case INCOMPLETE_SIGNATURE -> INCOMPLETE_SIGNATURE;
      case REQUEST_THROTTLED -> THROTTLED;
      case SERVICE_UNAVAILABLE -> SERVICE_UNAVAILABLE;
      case INVALID_PARAMETER_VALUE -> INVALID_PARAMETER_VALUE;
      case MISSING_PARAMETER -> VALIDATION_ERROR;
      case INVALID_ACTION, UNSUPPORTED_OPERATION -> INVALID_ACTION;
      case ACCESS_DENIED -> AUTHORIZATION_ERROR;
      default -> INTERNAL_ERROR;
    };
  }

  /** The {@code <Code>} of the error document. */
  public String code() {
    return code;
  }

  public int httpStatus() {
    return httpStatus;
  }

  /** {@code <Type>Sender</Type>} when true, else {@code Receiver}. */
  public boolean senderFault() {
    return senderFault;
  }
}
