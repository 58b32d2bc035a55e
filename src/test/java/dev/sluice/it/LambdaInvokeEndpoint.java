package dev.sluice.it;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.amazonaws.services.lambda.runtime.serialization.factories.JacksonFactory;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;

/**
 * A Java Lambda handler served as the runtime interface emulator serves a function, in the test
 * JVM: the JDK's HttpServer on 127.0.0.1 answers POST {@value #PATH}. The event is read and the
 * answer written by aws-lambda-java-serialization, chosen as Lambda's Java runtime chooses: the
 * library's own serializer for an event class it supports (SQSEvent), its plain Jackson factory
 * otherwise (SQSBatchResponse). A handler that throws is answered as the emulator answers it: a 200
 * whose body names errorType and errorMessage. The server's one dispatcher thread runs one invoke at
 * a time, as one execution environment does.
 */
final class LambdaInvokeEndpoint<I, O> implements AutoCloseable {
  static final String PATH = "/2015-03-31/functions/function/invocations";

  private final HttpServer server;
  private final RequestHandler<I, O> handler;
  private final PojoSerializer<I> in;
  private final PojoSerializer<O> out;

  private LambdaInvokeEndpoint(HttpServer server, RequestHandler<I, O> handler, Class<I> input, Class<O> output) {
    this.server = server;
    this.handler = handler;
    this.in = serializerFor(input);
    this.out = serializerFor(output);
  }

  static <I, O> LambdaInvokeEndpoint<I, O> start(RequestHandler<I, O> handler, Class<I> input, Class<O> output)
      throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    LambdaInvokeEndpoint<I, O> endpoint = new LambdaInvokeEndpoint<>(server, handler, input, output);
    server.createContext(PATH, endpoint::invoke);
    server.start();
    return endpoint;
  }

  /** The URL a trigger names as its FunctionName. */
  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + PATH;
  }

  private static <T> PojoSerializer<T> serializerFor(Class<T> type) {
    return LambdaEventSerializers.isLambdaSupportedEvent(type.getName())
        ? LambdaEventSerializers.serializerFor(type, type.getClassLoader())
        : JacksonFactory.getInstance().getSerializer(type);
  }

  private void invoke(HttpExchange exchange) throws IOException {
    try {
      if (!"POST".equals(exchange.getRequestMethod())) {
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      byte[] answer;
      try (InputStream body = exchange.getRequestBody()) {
        I event = in.fromJson(body);
        O result = handler.handleRequest(event, new InvokeContext(UUID.randomUUID().toString()));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        out.toJson(result, bytes);
        answer = bytes.toByteArray();
      } catch (RuntimeException e) {
        // What the emulator answers for a function that threw (a 200, no X-Amz-Function-Error).
        answer = new JsonObject().put("errorMessage", String.valueOf(e.getMessage()))
            .put("errorType", e.getClass().getName())
            .put("stackTrace", new JsonArray(Arrays.stream(e.getStackTrace()).map(String::valueOf).toList()))
            .encode().getBytes(StandardCharsets.UTF_8);
      }
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, answer.length);
      try (OutputStream body = exchange.getResponseBody()) {
        body.write(answer);
      }
    } finally {
      exchange.close();
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }

  /** What a handler is given with its event; the tests' handler reads none of it. */
  private record InvokeContext(String awsRequestId) implements Context {
    @Override
    public String getAwsRequestId() {
      return awsRequestId;
    }

    @Override
    public String getLogGroupName() {
      return "/aws/lambda/function";
    }

    @Override
    public String getLogStreamName() {
      return "sluice-test";
    }

    @Override
    public String getFunctionName() {
      return "function";
    }

    @Override
    public String getFunctionVersion() {
      return "$LATEST";
    }

    @Override
    public String getInvokedFunctionArn() {
      return "arn:aws:lambda:us-east-1:000000000000:function:function";
    }

    @Override
    public CognitoIdentity getIdentity() {
      return null;
    }

    @Override
    public ClientContext getClientContext() {
      return null;
    }

    @Override
    public int getRemainingTimeInMillis() {
      return 2_000;
    }

    @Override
    public int getMemoryLimitInMB() {
      return 128;
    }

    @Override
    public LambdaLogger getLogger() {
      return new LambdaLogger() {
        @Override
        public void log(String message) {
          System.out.print(message);
        }

        @Override
        public void log(byte[] message) {
          System.out.write(message, 0, message.length);
        }
      };
    }
  }
}
