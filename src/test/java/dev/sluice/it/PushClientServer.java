package dev.sluice.it;

import dev.sluice.client.ClientOptions;
import dev.sluice.client.SluiceClient;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The packaged jar with both push bridges on and a management token, for tests of the Java client
 * (which the tests load from the client jar): clients of either transport, and an SDK client to
 * send and to count what the server holds.
 */
final class PushClientServer implements AutoCloseable {
  static final String TOKEN = "client-it-token";

  final PackagedServer server;
  final int tcpPort;
  final SqsClient sqs;

  private PushClientServer(PackagedServer server, int tcpPort) {
    this.server = server;
    this.tcpPort = tcpPort;
    this.sqs = server.sqs("AKIDCLIENT", "secret");
  }

  static PushClientServer start(String logPrefix) throws Exception {
    int tcpPort = QuickstartIT.freePort();
    return new PushClientServer(PackagedServer.start(logPrefix, Map.of(
        "SLUICE_PUSH_TCP_PORT", Integer.toString(tcpPort), "SLUICE_MANAGEMENT_TOKEN", TOKEN)), tcpPort);
  }

  ClientOptions tcp() {
    return ClientOptions.tcp("127.0.0.1", tcpPort).token(TOKEN).replyTimeout(Duration.ofSeconds(10));
  }

  ClientOptions webSocket() {
    return ClientOptions.webSocket(URI.create(server.endpoint + "/eventbus")).token(TOKEN)
        .replyTimeout(Duration.ofSeconds(10));
  }

  ClientOptions transport(String name) {
    return "tcp".equals(name) ? tcp() : webSocket();
  }

  SluiceClient client(String transport) {
    return SluiceClient.connect(transport(transport));
  }

  String queue(String name, Map<String, String> attributes) {
    return sqs.createQueue(b -> b.queueName(name).attributesWithStrings(attributes)).queueUrl();
  }

  void send(String url, String... bodies) {
    for (String body : bodies) {
      sqs.sendMessage(b -> b.queueUrl(url).messageBody(body));
    }
  }

  /** Messages received and not yet deleted or given back, as the server counts them (exactly). */
  int notVisible(String url) {
    return Integer.parseInt(sqs.getQueueAttributes(b -> b.queueUrl(url)
        .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributesAsStrings()
        .get("ApproximateNumberOfMessagesNotVisible"));
  }

  int visible(String url) {
    return Integer.parseInt(sqs.getQueueAttributes(b -> b.queueUrl(url)
        .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).attributesAsStrings()
        .get("ApproximateNumberOfMessages"));
  }

  @Override
  public void close() throws java.io.IOException {
    sqs.close();
    server.close();
  }
}
