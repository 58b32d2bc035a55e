package dev.sluice.protocol.lambda;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.api.triggers.LambdaErrorCode;
import dev.sluice.api.triggers.LambdaException;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;

/**
 * The one renderer of the admin API's errors, in Lambda's REST-JSON form: the code in
 * {@code x-amzn-ErrorType}, the body {@code {"Type": "User", "message": …}} ({@code Type} absent for
 * a ValidationException, as AWS answers it). A server that is not serving answers the retryable
 * ServiceException; anything unexpected does too, without its details.
 */
public final class LambdaErrors {
  private static final System.Logger LOG = System.getLogger(LambdaErrors.class.getName());

  private LambdaErrors() {}

  public static void render(HttpServerResponse response, String requestId, Throwable failure) {
    LambdaException e;
    if (failure instanceof LambdaException lambda) {
      e = lambda;
    } else if (failure instanceof SqsException sqs && (sqs.code() == ErrorCode.SERVICE_UNAVAILABLE
        || sqs.code() == ErrorCode.REQUEST_THROTTLED)) {
      e = new LambdaException(LambdaErrorCode.SERVICE, "Sluice is not serving now; retry.");
    } else {
      LOG.log(System.Logger.Level.WARNING, "A trigger admin request failed unexpectedly", failure);
      e = new LambdaException(LambdaErrorCode.SERVICE, "Sluice could not complete the request; retry.");
    }
    JsonObject body = new JsonObject();
    if (e.code().user()) {
      body.put("Type", "User");
    }
    body.put("message", e.getMessage());
    response.setStatusCode(e.code().httpStatus())
        .putHeader("x-amzn-ErrorType", e.code().code())
        .putHeader("x-amzn-RequestId", requestId)
        .putHeader("content-type", "application/json")
        .end(body.encode());
  }
}
