package dev.sluice.config;

import java.util.Arrays;
import java.util.Optional;

/**
 * Every configuration key: its path in {@code conf/sluice.yaml}, the environment variable that
 * overrides it, and what it means. Defaults live only in conf/sluice.yaml (shipped in the jar);
 * a test keeps this table, that file and the table of src/site/markdown/configuration.md in agreement.
 */
public enum ConfigKey {
  HTTP_HOST("http.host", "Address the HTTP listener binds to. Use 0.0.0.0 in containers."),
  HTTP_PORT("http.port", "HTTP port for the SQS APIs (0 picks a free port)."),
  HTTP_INSTANCES("http.instances", "HTTP server verticles sharing the port; 0 means one per event loop."),
  HTTP_MAX_BODY_BYTES(
      "http.maxBodyBytes",
      "Largest request body accepted, in bytes (actions other than sends take at most 256 KiB)."),
  HTTP_MAX_INFLIGHT_BODY_BYTES(
      "http.maxInflightBodyBytes",
      "Request bytes held in memory at once, server-wide, before requests are throttled; 0 means an eighth of"
          + " the JVM's max heap."),
  HTTP_MAX_CONNECTIONS(
      "http.maxConnections", "Open connections to the HTTP port (and, apart, to the TCP bridge); more are closed at once."),
  HTTP_HEADER_TIMEOUT_MILLIS(
      "http.headerTimeoutMillis", "Longest a new connection may take to send its first request's headers, in ms."),
  HTTP_BODY_TIMEOUT_MILLIS(
      "http.bodyTimeoutMillis", "Longest a request's body may take to arrive once its headers are in, in ms."),
  HTTP_IDLE_TIMEOUT_MILLIS(
      "http.idleTimeoutMillis",
      "Longest a connection may stay open between requests, in ms (a parked long poll is a request, not idle)."),
  HTTP_PUBLIC_BASE_URL(
      "http.publicBaseUrl",
      "Scheme, host and port that queue URLs start with, e.g. http://sqs.internal:9324; empty means"
          + " from each request's Host header."),
  SQS_ACCOUNT_ID(
      "sqs.accountId",
      "12-digit default account: of unauthenticated requests and of credentials given as KEYID:SECRET."),
  SQS_REGION("sqs.region", "Default region: the region of unsigned requests (signed ones act in their signature's)."),
  SQS_REGIONS(
      "sqs.regions",
      "Regions served (comma-separated, or a YAML list); a request signed for another is refused. Empty: any."),
  ENGINE_EVENT_LOOPS("engine.eventLoops", "Vert.x event-loop threads; 0 means one per CPU core."),
  ENGINE_SHARDS("engine.shards", "Shard verticles owning the queues; 0 means one per event loop."),
  ENGINE_DISPATCH(
      "engine.dispatch", "How requests reach their shard: direct (context hand-off) or eventbus."),
  ENGINE_MEMORY_BUDGET_BYTES(
      "engine.memoryBudgetBytes",
      "Bytes of messages held in memory; 0 means half the JVM's max heap. In memory mode (and with"
          + " pg.headWindowMessages 0) sends past it are throttled; with PostgreSQL, messages past it stay"
          + " there only."),
  ENGINE_MAX_PARKED_RECEIVES(
      "engine.maxParkedReceives", "Long polls that may wait at once, server-wide."),
  ENGINE_MAX_PARKED_RECEIVES_PER_QUEUE(
      "engine.maxParkedReceivesPerQueue", "Long polls that may wait at once on one queue."),
  ENGINE_MAX_INFLIGHT_PER_QUEUE(
      "engine.maxInflightPerQueue", "In-flight messages per queue before receives stop (SQS: 120000)."),
  ENGINE_MAX_QUEUES(
      "engine.maxQueues",
      "Queues that may exist at once, server-wide (predefined ones included); past it CreateQueue gets OverLimit."),
  STORAGE("storage", "memory (nothing persisted) or postgres (durable, see pg.*)."),
  DURABILITY(
      "durability",
      "postgres only: commit (a send or a queue change is answered once it is committed) or relaxed"
          + " (answered at once; may lose up to one flush interval of them on a crash)."),
  PG_URL("pg.url", "postgresql://user[:password]@host:port/database of the PostgreSQL to use."),
  PG_POOL_SIZE("pg.poolSize", "Connections to PostgreSQL; the writer runs up to poolSize - 1 transactions at once."),
  PG_BATCH_SIZE("pg.batchSize", "Most changes written in one transaction."),
  PG_FLUSH_INTERVAL_MILLIS(
      "pg.flushIntervalMillis", "Longest a change waits for others to share its transaction, in ms."),
  PG_SEND_TIMEOUT_MILLIS(
      "pg.sendTimeoutMillis",
      "Longest a send or a queue change waits for its commit before failing with the retryable"
          + " ServiceUnavailable, in ms."),
  PG_MAX_WRITER_BACKLOG_BYTES(
      "pg.maxWriterBacklogBytes",
      "Bytes of message content submitted and not yet written to PostgreSQL past which sends are"
          + " throttled (the retryable RequestThrottled) until PostgreSQL catches up; 0 means an eighth of"
          + " the JVM's max heap."),
  PG_HEAD_WINDOW_MESSAGES(
      "pg.headWindowMessages",
      "Never-received messages a queue keeps in memory (10000 by default); the rest stay in PostgreSQL"
          + " only, counted exactly, and are read back in delivery order as the queue drains, so a backlog may"
          + " exceed the heap. Also a FIFO queue's lookahead for message groups. 0 keeps every message in"
          + " memory, as in memory mode."),
  PG_READ_POOL_SIZE(
      "pg.readPoolSize",
      "Connections to PostgreSQL for reading back messages kept only there, and deleting those whose"
          + " retention ended (pg.headWindowMessages above 0), apart from the writer's so that reads never"
          + " wait behind write batches."),
  PG_LEASE_MILLIS(
      "pg.leaseMillis",
      "How long a server serves after PostgreSQL last confirmed its database lock (checked every quarter"
          + " of it), and how long a server taking over after an unclean stop waits before serving, in ms."),
  PUSH_ENABLED("push.enabled", "Push delivery over the event-bus bridge (SockJS on the HTTP port)."),
  PUSH_PATH("push.path", "HTTP path of the SockJS event-bus bridge."),
  PUSH_TCP_HOST("push.tcpHost", "Address the TCP event-bus bridge binds to."),
  PUSH_TCP_PORT("push.tcpPort", "Port of the TCP event-bus bridge; 0 (the default) leaves it off."),
  PUSH_MAX_FRAME_BYTES(
      "push.maxFrameBytes", "Largest frame a bridge client may send, in bytes; larger ones are refused."),
  PUSH_MAX_PREFETCH("push.maxPrefetch", "Most unacknowledged messages one subscription may hold."),
  PUSH_ALLOWED_ORIGINS(
      "push.allowedOrigins",
      "Browser origins (scheme://host[:port], comma-separated) the SockJS bridge accepts besides its own; * accepts"
          + " any."),
  OUTBOUND_CONNECT_TIMEOUT_MILLIS(
      "outbound.connectTimeoutMillis", "Longest a connection to an HTTP/HTTPS subscriber may take to open, in ms."),
  OUTBOUND_REQUEST_TIMEOUT_MILLIS(
      "outbound.requestTimeoutMillis",
      "Longest an HTTP/HTTPS subscriber may take to answer a delivery, in ms; past it the attempt failed."),
  OUTBOUND_MAX_CONNECTIONS_PER_ENDPOINT(
      "outbound.maxConnectionsPerEndpoint", "Connections open at once to one subscriber endpoint (scheme, host, port)."),
  OUTBOUND_MAX_QUEUED_PER_ENDPOINT(
      "outbound.maxQueuedPerEndpoint",
      "Deliveries waiting for a connection to one endpoint; past it an attempt fails at once and is retried later."),
  OUTBOUND_ALLOW_PRIVATE_ADDRESSES(
      "outbound.allowPrivateAddresses",
      "Whether HTTP/HTTPS subscribers may be on loopback, private or link-local addresses: true, false, or auto"
          + " (false when credentials are configured, true otherwise)."),
  INVOKE_ENABLED(
      "invoke.enabled", "Whether queue triggers run: false leaves their admin API unrouted and no trigger polling."),
  INVOKE_MAX_TRIGGERS("invoke.maxTriggers", "Triggers that may exist at once, server-wide."),
  INVOKE_MAX_CONCURRENT_INVOKES(
      "invoke.maxConcurrentInvokes", "Pollers of all triggers at once, server-wide: the most invokes in flight."),
  INVOKE_ALLOW_PRIVATE_ADDRESSES(
      "invoke.allowPrivateAddresses",
      "Whether a trigger's target may be on a loopback, private or link-local address (targets are named by the"
          + " management token's holder only)."),
  OUTBOX_ENABLED(
      "outbox.enabled",
      "Whether the outbox relays run: false leaves every outbox.sources entry unrelayed and its admin view empty."),
  OUTBOX_SOURCES(
      "outbox.sources",
      "Application databases whose outbox table is relayed to queues (name, url, user, password, table, ...);"
          + " in the environment, a JSON list."),
  CONSOLE_ENABLED(
      "console.enabled", "Serve the web console at /console and keep its history; false answers 404 there."),
  CONSOLE_SAMPLE_MILLIS(
      "console.sampleMillis", "One tick of the console's history: every queue's counts are read this often, in ms."),
  CONSOLE_HISTORY_SERIES(
      "console.historySeries",
      "Queues and topics whose history the console keeps; 0 keeps live values only."),
  CONSOLE_MAX_STREAMS("console.maxStreams", "Live-update connections of the console, server-wide."),
  METRICS_ENABLED("metrics.enabled", "Prometheus metrics at GET /metrics on the HTTP port."),
  SHUTDOWN_GRACE_MILLIS(
      "shutdown.graceMillis",
      "Longest a stop (SIGTERM) may take to answer parked polls, close subscriptions and flush writes, in ms."),
  CREDENTIALS(
      "credentials",
      "KEYID:SECRET[,KEYID:SECRET...] (of the default account), or a list of credentials with accessKeyId,"
          + " secretAccessKey, accountId and permissions: when set, every SQS request must carry a valid SigV4"
          + " signature by one of these keys; empty accepts any signature (authentication off)."),
  MANAGEMENT_TOKEN(
      "managementToken",
      "Bearer token that /metrics, the push bridges and the console require; empty leaves them open, which is allowed only"
          + " with a loopback http.host and no credentials; 'off' leaves them open on purpose."),
  TLS_CERT_PATH("tls.certPath", "PEM certificate chain: with tls.keyPath, the HTTP listener speaks HTTPS."),
  TLS_KEY_PATH("tls.keyPath", "PEM private key (PKCS#8) of tls.certPath."),
  CLUSTER_ENABLED(
      "cluster.enabled",
      "Cluster mode: several nodes share one PostgreSQL and its queues. Needs storage: postgres, engine.shards 0 and"
          + " engine.dispatch direct."),
  CLUSTER_SHARDS("cluster.shards", "Virtual shards the queues are spread over, 1-1024."),
  CLUSTER_NAME("cluster.name", "Hazelcast cluster name; keeps clusters apart on one network. Not a secret."),
  CLUSTER_HOST(
      "cluster.host",
      "IP address the Hazelcast and event-bus ports bind to (not a wildcard); in Kubernetes, the pod IP."),
  CLUSTER_PORT("cluster.port", "Hazelcast member port, 1-65535 (never incremented)."),
  CLUSTER_EVENT_BUS_PORT("cluster.eventBusPort", "Event-bus TCP port between nodes; 0 picks a free port."),
  CLUSTER_ADVERTISED_HOST(
      "cluster.advertisedHost", "Host other nodes reach this one at; empty means cluster.host."),
  CLUSTER_ADVERTISED_EVENT_BUS_PORT(
      "cluster.advertisedEventBusPort", "Event-bus port other nodes reach this one at; 0 means cluster.eventBusPort."),
  CLUSTER_MEMBERS(
      "cluster.members",
      "Nodes to join over TCP/IP, host[:port] comma-separated. This or cluster.kubernetesService is required beyond"
          + " loopback; on loopback, with neither, the node runs alone."),
  CLUSTER_KUBERNETES_SERVICE(
      "cluster.kubernetesService", "Headless Service whose DNS name lists the nodes; not with cluster.members."),
  CLUSTER_LEASE_MILLIS(
      "cluster.leaseMillis", "A node's lease on a shard, in ms (at least 1000), renewed every quarter of it."),
  CLUSTER_MEMBER_TIMEOUT_MILLIS(
      "cluster.memberTimeoutMillis", "Silence after which Hazelcast drops a node, in ms (at least 2000)."),
  CLUSTER_RETRY_MILLIS(
      "cluster.retryMillis",
      "Longest a call is retried while its shard moves between nodes before ServiceUnavailable, in ms; 0 never"
          + " retries."),
  CLUSTER_SECRET(
      "cluster.secret",
      "At least 32 characters; authenticates the calls nodes forward to each other. Required unless cluster.host is"
          + " a loopback address."),
  CLUSTER_TLS_CERT_PATH(
      "cluster.tlsCertPath",
      "PEM certificate chain: with cluster.tlsKeyPath and cluster.tlsCaPath, mutual TLS on the event bus."),
  CLUSTER_TLS_KEY_PATH("cluster.tlsKeyPath", "PEM private key (PKCS#8) of cluster.tlsCertPath."),
  CLUSTER_TLS_CA_PATH("cluster.tlsCaPath", "PEM certificates of the authority the other nodes' certificates chain to."),
  QUEUES(
      "queues",
      "Queues created at start-up when absent (name, attributes, tags, deadLetterQueue); in the"
          + " environment, a JSON list."),
  TOPICS(
      "topics",
      "SNS topics created at start-up when absent (name, attributes, tags, subscriptions of queues); in the"
          + " environment, a JSON list."),
  TRIGGERS(
      "triggers",
      "Queue triggers kept as the configuration says (the admin API's request, with QueueName); in the"
          + " environment, a JSON list.");

  private final String path;
  private final String description;

  ConfigKey(String path, String description) {
    this.path = path;
    this.description = description;
  }

  public String path() {
    return path;
  }

  public String description() {
    return description;
  }

  /** SLUICE_ + the path in upper snake case: http.maxBodyBytes → SLUICE_HTTP_MAX_BODY_BYTES. */
  public String envVar() {
    return "SLUICE_" + path.replace('.', '_').replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase();
  }

  public static Optional<ConfigKey> byPath(String path) {
    return Arrays.stream(values()).filter(k -> k.path.equals(path)).findFirst();
  }
}
