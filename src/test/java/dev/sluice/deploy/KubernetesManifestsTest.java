package dev.sluice.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConfigKey;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.http.HealthEndpoints;
import dev.sluice.metrics.MetricNames;
import dev.sluice.testtools.JvmFlagSets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The files under k8s/ agree with the code and the configuration: every SLUICE_* variable exists
 * and its value loads, ports, probe and metrics paths, the metric the autoscalers use, the grace
 * periods, the Secret references, and the Dockerfile's jar, port and user. The cluster variant
 * under k8s/cluster/ (src/site/markdown/design/cluster.md §2.20) loads with cluster mode on, rolls
 * one node at a time without going below its replicas, and opens the cluster ports to its own pods
 * only.
 */
class KubernetesManifestsTest {
  static final Path K8S = Path.of("k8s");
  static final String QUEUE_DEPTH = MetricNames.QUEUE_VISIBLE.replace('.', '_');
  static final String CLUSTER = "sluice-cluster";
  static final String MEMBERS = "sluice-cluster-members";
  /** Stands in for status.podIP, which the kubelet fills in. */
  static final String POD_IP = "10.0.0.1";

  /** Every YAML document under k8s/, by file name relative to k8s/. */
  static Map<String, List<Map<String, Object>>> documents() throws IOException {
    Map<String, List<Map<String, Object>>> out = new HashMap<>();
    try (Stream<Path> files = Files.walk(K8S)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).toList()) {
        List<Map<String, Object>> docs = new ArrayList<>();
        for (Object doc : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(Files.readString(f))) {
          assertTrue(doc instanceof Map, f + " holds mappings");
          docs.add(cast(doc));
        }
        out.put(K8S.relativize(f).toString(), docs);
      }
    }
    return out;
  }

  static Map<String, Object> kind(Map<String, List<Map<String, Object>>> docs, String kind, String name) {
    return docs.values().stream().flatMap(List::stream)
        .filter(d -> kind.equals(d.get("kind")) && name.equals(get(d, "metadata", "name")))
        .findFirst().orElseThrow(() -> new AssertionError("k8s/ has no " + kind + " " + name));
  }

  @SuppressWarnings("unchecked")
  static <T> T cast(Object o) {
    return (T) o;
  }

  /** The value at a path of keys and list indexes, or null. */
  static Object get(Object node, Object... path) {
    for (Object step : path) {
      if (step instanceof Integer i && node instanceof List<?> l) {
        node = i < l.size() ? l.get(i) : null;
      } else if (node instanceof Map<?, ?> m) {
        node = m.get(step);
      } else {
        return null;
      }
    }
    return node;
  }

  static Map<String, Object> container(Map<String, List<Map<String, Object>>> docs) {
    return container(docs, "sluice");
  }

  static Map<String, Object> container(Map<String, List<Map<String, Object>>> docs, String deployment) {
    return cast(get(kind(docs, "Deployment", deployment), "spec", "template", "spec", "containers", 0));
  }

  static Map<String, String> configMapData(Map<String, List<Map<String, Object>>> docs) {
    return configMapData(docs, "sluice");
  }

  static Map<String, String> configMapData(Map<String, List<Map<String, Object>>> docs, String name) {
    Map<String, Object> data = cast(get(kind(docs, "ConfigMap", name), "data"));
    return data.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> String.valueOf(e.getValue())));
  }

  /** The labels of a Deployment's pods. */
  static Map<String, Object> podLabels(Map<String, List<Map<String, Object>>> docs, String deployment) {
    return cast(get(kind(docs, "Deployment", deployment), "spec", "template", "metadata", "labels"));
  }

  /** Whether a matchLabels selector (or a Service's selector) selects pods with these labels. */
  static boolean selects(Object matchLabels, Map<String, Object> labels) {
    return matchLabels instanceof Map<?, ?> m && !m.isEmpty()
        && m.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
  }

  /**
   * The cluster pod's environment as the kubelet would build it: the ConfigMap, then the container's
   * env with the pod IP stand-in and the example Secrets' values, then the image's ENV lines.
   */
  static Map<String, String> clusterEnvironment(Map<String, List<Map<String, Object>>> docs) throws IOException {
    Map<String, String> env = new HashMap<>(configMapData(docs, CLUSTER));
    List<Map<String, Object>> containerEnv = cast(container(docs, CLUSTER).get("env"));
    for (Map<String, Object> e : containerEnv) {
      String name = (String) e.get("name");
      Object field = get(e, "valueFrom", "fieldRef", "fieldPath");
      Object secret = get(e, "valueFrom", "secretKeyRef");
      if ("status.podIP".equals(field)) {
        env.put(name, POD_IP);
      } else if (secret != null) {
        env.put(name, String.valueOf(get(kind(docs, "Secret", (String) get(secret, "name")), "stringData",
            get(secret, "key"))));
      } else {
        assertNotNull(e.get("value"), name + " has a value, a field or a Secret");
        env.put(name, String.valueOf(e.get("value")));
      }
    }
    Matcher m = Pattern.compile("(?m)^ENV (SLUICE_[A-Z_]+)=(\\S+)").matcher(dockerfile());
    while (m.find()) {
      env.putIfAbsent(m.group(1), m.group(2));
    }
    return env;
  }

  static SluiceConfig clusterConfig(Map<String, List<Map<String, Object>>> docs) throws IOException {
    return ConfigLoader.load(new String[0], clusterEnvironment(docs));
  }

  static String dockerfile() throws IOException {
    return Files.readString(K8S.resolve("Dockerfile"));
  }

  @Test
  void everyManifestParsesAndTheKustomizationListsFilesThatExist() throws Exception {
    Map<String, List<Map<String, Object>>> docs = documents();
    for (Map.Entry<String, List<Map<String, Object>>> f : docs.entrySet()) {
      if (!f.getKey().endsWith("prometheus-adapter-rule.yaml")) { // adapter configuration, not an object
        for (Map<String, Object> d : f.getValue()) {
          assertNotNull(d.get("apiVersion"), f.getKey() + " has apiVersion");
          assertNotNull(d.get("kind"), f.getKey() + " has kind");
        }
      }
    }
    List<String> resources = cast(docs.get("kustomization.yaml").get(0).get("resources"));
    for (String r : resources) {
      assertTrue(Files.exists(K8S.resolve(r)), "kustomization.yaml lists " + r + ", which exists");
    }
  }

  @Test
  void everySluiceVariableExistsAndTheConfigMapLoads() throws Exception {
    Map<String, List<Map<String, Object>>> docs = documents();
    Set<String> known = Stream.of(ConfigKey.values()).map(ConfigKey::envVar).collect(Collectors.toSet());
    Map<String, String> env = new HashMap<>(configMapData(docs));
    List<Map<String, Object>> containerEnv = cast(container(docs).get("env"));
    for (Map<String, Object> e : containerEnv) {
      env.putIfAbsent((String) e.get("name"), "from-a-secret");
    }
    Matcher m = Pattern.compile("(?m)^ENV (SLUICE_[A-Z_]+)=(\\S+)").matcher(dockerfile());
    while (m.find()) {
      env.putIfAbsent(m.group(1), m.group(2));
    }
    for (String name : env.keySet()) {
      assertTrue(known.contains(name), name + " is a configuration variable (ConfigKey)");
    }
    // Secrets hold real values at run time; stand-ins of the right shape here.
    env.put("SLUICE_PG_URL", "postgresql://sluice:pw@postgres:5432/sluice");
    env.put("SLUICE_MANAGEMENT_TOKEN", "token");
    env.put("SLUICE_CREDENTIALS", "AKID:secret");
    SluiceConfig cfg = ConfigLoader.load(new String[0], env);
    assertTrue(cfg.storage().durable(), "the manifests run Sluice on PostgreSQL");
  }

  @Test
  void portsProbesAndMetricsPathsMatchTheCode() throws Exception {
    Map<String, List<Map<String, Object>>> docs = documents();
    int port = ConfigLoader.load(new String[0], Map.of()).http().port();
    Map<String, Object> c = container(docs);
    assertEquals(port, get(c, "ports", 0, "containerPort"), "containerPort is http.port");
    assertEquals("http", get(c, "ports", 0, "name"), "deployment.yaml names its port http");
    assertEquals(String.valueOf(port), configMapData(docs).get("SLUICE_HTTP_PORT"), "configmap.yaml SLUICE_HTTP_PORT");
    Map<String, Object> service = kind(docs, "Service", "sluice");
    assertEquals(port, get(service, "spec", "ports", 0, "port"), "service.yaml port");
    assertEquals("http", get(service, "spec", "ports", 0, "targetPort"), "service.yaml targetPort");
    assertEquals(HealthEndpoints.LIVE, get(c, "livenessProbe", "httpGet", "path"), "deployment.yaml liveness path");
    assertEquals(HealthEndpoints.READY, get(c, "readinessProbe", "httpGet", "path"), "deployment.yaml readiness path");
    assertEquals(HealthEndpoints.LIVE, get(c, "startupProbe", "httpGet", "path"), "deployment.yaml start-up path");
    assertTrue((int) get(c, "startupProbe", "periodSeconds") * (int) get(c, "startupProbe", "failureThreshold") >= 300,
        "a heap touched at start has five minutes before liveness counts");
    assertEquals(get(c, "resources", "limits", "memory"), get(c, "resources", "requests", "memory"),
        "a fixed heap touched at start uses the limit at once: request it");
    assertEquals("http", get(c, "readinessProbe", "httpGet", "port"), "deployment.yaml readiness port");
    Map<String, Object> annotations = cast(get(kind(docs, "Deployment", "sluice"), "spec", "template", "metadata",
        "annotations"));
    assertEquals(MetricNames.SCRAPE_PATH, annotations.get("prometheus.io/path"), "deployment.yaml scrape annotation");
    assertEquals(String.valueOf(port), annotations.get("prometheus.io/port"), "deployment.yaml scrape port annotation");
    Map<String, Object> monitor = kind(docs, "ServiceMonitor", "sluice");
    assertEquals(MetricNames.SCRAPE_PATH, get(monitor, "spec", "endpoints", 0, "path"), "servicemonitor.yaml path");
    assertEquals("http", get(monitor, "spec", "endpoints", 0, "port"), "servicemonitor.yaml port");
    assertTrue(dockerfile().contains("\nEXPOSE " + port + "\n"), "the Dockerfile exposes http.port");
  }

  @Test
  void theAutoscalersUseTheQueueDepthMetric() throws Exception {
    Map<String, List<Map<String, Object>>> docs = documents();
    assertEquals(QUEUE_DEPTH, get(kind(docs, "HorizontalPodAutoscaler", "orders-worker"), "spec", "metrics", 0,
        "external", "metric", "name"));
    String query = (String) get(kind(docs, "ScaledObject", "orders-worker"), "spec", "triggers", 0, "metadata", "query");
    assertTrue(query.contains(QUEUE_DEPTH + "{"), "KEDA queries " + QUEUE_DEPTH + ": " + query);
    String rule = (String) get(docs.get("autoscaling/prometheus-adapter-rule.yaml").get(0), "rules", "external", 0,
        "seriesQuery");
    assertTrue(rule.startsWith(QUEUE_DEPTH + "{"), "the adapter serves " + QUEUE_DEPTH + ": " + rule);
  }

  @Test
  void theStopFitsInTheGracePeriodAndTheDeploymentStopsBeforeItStarts() throws Exception {
    Map<String, List<Map<String, Object>>> docs = documents();
    Map<String, Object> deployment = kind(docs, "Deployment", "sluice");
    int podGraceSeconds = (Integer) get(deployment, "spec", "template", "spec", "terminationGracePeriodSeconds");
    long sluiceGraceMillis = Long.parseLong(configMapData(docs).get("SLUICE_SHUTDOWN_GRACE_MILLIS"));
    assertTrue(podGraceSeconds * 1000L > sluiceGraceMillis + 5_000,
        "terminationGracePeriodSeconds (" + podGraceSeconds + " s) leaves room after the graceful stop ("
            + sluiceGraceMillis + " ms) for the JVM to exit");
    assertEquals(1, get(deployment, "spec", "replicas"), "one server per database");
    assertEquals("Recreate", get(deployment, "spec", "strategy", "type"),
        "a rolling update would wait for the old pod's database lock for ever");
  }

  @Test
  void secretReferencesPointAtTheExampleSecrets() throws Exception {
    Map<String, List<Map<String, Object>>> docs = documents();
    List<Map<String, Object>> containerEnv = cast(container(docs).get("env"));
    Map<String, Object> pgUrl = containerEnv.stream().filter(e -> "SLUICE_PG_URL".equals(e.get("name"))).findFirst()
        .orElseThrow(() -> new AssertionError("the Deployment sets SLUICE_PG_URL"));
    for (Map<String, Object> e : containerEnv) {
      Object ref = get(e, "valueFrom", "secretKeyRef");
      if (ref != null) {
        Map<String, Object> secret = kind(docs, "Secret", (String) get(ref, "name"));
        assertTrue(((Map<?, ?>) secret.get("stringData")).containsKey(get(ref, "key")),
            e.get("name") + " reads a key secret-example.yaml shows");
      }
    }
    assertNotNull(get(pgUrl, "valueFrom", "secretKeyRef"), "the PostgreSQL URL comes from a Secret");
  }

  @Test
  void theClusterVariantParsesAndItsKustomizationListsItsObjects() throws Exception {
    Map<String, List<Map<String, Object>>> docs = documents();
    Path dir = K8S.resolve("cluster");
    List<String> resources = cast(docs.get("cluster/kustomization.yaml").get(0).get("resources"));
    Map<String, List<Map<String, Object>>> listed = new HashMap<>();
    for (String r : resources) {
      // kustomize's default load restrictor refuses files outside the kustomization's directory.
      assertTrue(!r.contains("..") && Files.exists(dir.resolve(r)), "cluster/kustomization.yaml lists " + r
          + ", which exists in k8s/cluster/");
      assertFalse(r.startsWith("secret-example"), "the example Secret is created by hand, not applied");
      listed.put(r, docs.get("cluster/" + r));
    }
    for (String[] object : new String[][] {{"ConfigMap", CLUSTER}, {"Deployment", CLUSTER}, {"Service", CLUSTER},
        {"Service", MEMBERS}, {"PodDisruptionBudget", CLUSTER}, {"NetworkPolicy", CLUSTER}}) {
      kind(listed, object[0], object[1]); // throws when kubectl apply -k would not create it
    }
    for (Map.Entry<String, List<Map<String, Object>>> f : docs.entrySet()) {
      if (f.getKey().startsWith("cluster/") && !f.getKey().equals("cluster/kustomization.yaml")) {
        for (Map<String, Object> d : f.getValue()) {
          String name = (String) get(d, "metadata", "name");
          assertTrue(name.startsWith(CLUSTER), f.getKey() + ": " + name + " is named " + CLUSTER
              + "*, so the single-node look-ups keep finding the sluice objects");
        }
      }
    }
  }

  @Test
  void theClusterPodsEnvironmentLoadsWithClusterModeOn() throws Exception {
    Map<String, List<Map<String, Object>>> docs = documents();
    Set<String> known = Stream.of(ConfigKey.values()).map(ConfigKey::envVar).collect(Collectors.toSet());
    Map<String, String> env = clusterEnvironment(docs);
    for (String name : env.keySet()) {
      assertTrue(known.contains(name), name + " is a configuration variable (ConfigKey)");
    }
    assertEquals(CLUSTER, get(container(docs, CLUSTER), "envFrom", 0, "configMapRef", "name"));
    SluiceConfig cfg = ConfigLoader.load(new String[0], env); // every refusal of cluster mode checked here
    assertTrue(cfg.cluster().enabled(), "the variant turns cluster mode on");
    assertTrue(cfg.storage().durable(), "on PostgreSQL");
    assertEquals(0, cfg.engine().shards(), "engine.shards 0");
    assertEquals("direct", cfg.engine().dispatch(), "engine.dispatch direct");
    assertEquals(POD_IP, cfg.cluster().host(), "the cluster ports bind to the pod IP");
    assertEquals(POD_IP, cfg.cluster().advertisedHost(), "the other nodes dial the pod IP");
    assertEquals(List.of(), cfg.cluster().members(), "found through the headless Service, not a list");
    assertEquals(MEMBERS, cfg.cluster().kubernetesService().split("\\.")[0],
        "cluster.kubernetesService names the headless Service");
    assertEquals(env.get("SLUICE_CLUSTER_SECRET"), cfg.cluster().secret(), "the secret comes from the Secret");
  }

  @Test
  void theClusterRollsOneNodeAtATimeAndNeverBelowThree() throws Exception {
    Map<String, List<Map<String, Object>>> docs = documents();
    Map<String, Object> deployment = kind(docs, "Deployment", CLUSTER);
    assertEquals(3, get(deployment, "spec", "replicas"));
    assertEquals("RollingUpdate", get(deployment, "spec", "strategy", "type"),
        "nodes hold leases per shard, not a lock on the database, so old and new run side by side");
    assertEquals(0, get(deployment, "spec", "strategy", "rollingUpdate", "maxUnavailable"),
        "a new node is ready before an old one stops");
    assertEquals(1, get(deployment, "spec", "strategy", "rollingUpdate", "maxSurge"), "one node at a time");
    assertEquals(1, get(kind(docs, "PodDisruptionBudget", CLUSTER), "spec", "maxUnavailable"),
        "drains evict one node at a time");
    assertEquals(2, get(container(docs, CLUSTER), "readinessProbe", "periodSeconds"), "readiness every 2 s");
    assertEquals(HealthEndpoints.READY, get(container(docs, CLUSTER), "readinessProbe", "httpGet", "path"));
    assertEquals(HealthEndpoints.LIVE, get(container(docs, CLUSTER), "livenessProbe", "httpGet", "path"));
  }

  @Test
  void theClusterPortsMatchTheConfigurationTheContainerAndTheServices() throws Exception {
    Map<String, List<Map<String, Object>>> docs = documents();
    SluiceConfig cfg = clusterConfig(docs);
    Map<String, Integer> containerPorts = new HashMap<>();
    List<Map<String, Object>> ports = cast(container(docs, CLUSTER).get("ports"));
    for (Map<String, Object> p : ports) {
      containerPorts.put((String) p.get("name"), (Integer) p.get("containerPort"));
    }
    assertEquals(Map.of("http", cfg.http().port(), "hazelcast", cfg.cluster().port(), "eventbus",
        cfg.cluster().eventBusPort()), containerPorts, "container ports are http.port, cluster.port and"
        + " cluster.eventBusPort");
    Map<String, Object> members = kind(docs, "Service", MEMBERS);
    assertEquals("None", get(members, "spec", "clusterIP"), "headless: DNS lists the pods' own addresses");
    assertEquals(true, get(members, "spec", "publishNotReadyAddresses"), "nodes find each other before ready");
    List<Map<String, Object>> memberPorts = cast(get(members, "spec", "ports"));
    Set<Integer> published = new HashSet<>();
    for (Map<String, Object> p : memberPorts) {
      published.add((Integer) p.get("port"));
      Object target = p.get("targetPort");
      assertEquals(p.get("port"), target instanceof String name ? containerPorts.get(name) : target,
          MEMBERS + " port " + p.get("port") + " goes to the container port of that number");
    }
    assertEquals(Set.of(cfg.cluster().port(), cfg.cluster().eventBusPort()), published,
        MEMBERS + " carries cluster.port and cluster.eventBusPort");
    Map<String, Object> service = kind(docs, "Service", CLUSTER);
    List<Map<String, Object>> servicePorts = cast(get(service, "spec", "ports"));
    assertEquals(1, servicePorts.size(), CLUSTER + " exposes the client port only, never the cluster ports");
    assertEquals(cfg.http().port(), get(servicePorts, 0, "port"));
    assertEquals("http", get(servicePorts, 0, "targetPort"));
  }

  @Test
  void theClusterSelectorsSelectItsPodsOnlyAndItsPortsAdmitOnlyThem() throws Exception {
    Map<String, List<Map<String, Object>>> docs = documents();
    Map<String, Object> pods = podLabels(docs, CLUSTER);
    Map<String, Object> singleNodePods = podLabels(docs, "sluice");
    Map<String, Object> selectors = new LinkedHashMap<>();
    selectors.put("the Deployment", get(kind(docs, "Deployment", CLUSTER), "spec", "selector", "matchLabels"));
    selectors.put("the topology spread", get(kind(docs, "Deployment", CLUSTER), "spec", "template", "spec",
        "topologySpreadConstraints", 0, "labelSelector", "matchLabels"));
    selectors.put("Service " + CLUSTER, get(kind(docs, "Service", CLUSTER), "spec", "selector"));
    selectors.put("Service " + MEMBERS, get(kind(docs, "Service", MEMBERS), "spec", "selector"));
    selectors.put("the PodDisruptionBudget", get(kind(docs, "PodDisruptionBudget", CLUSTER), "spec", "selector",
        "matchLabels"));
    Map<String, Object> policy = kind(docs, "NetworkPolicy", CLUSTER);
    selectors.put("the NetworkPolicy", get(policy, "spec", "podSelector", "matchLabels"));
    for (Map.Entry<String, Object> s : selectors.entrySet()) {
      assertTrue(selects(s.getValue(), pods), s.getKey() + " selects the cluster pods");
      assertFalse(selects(s.getValue(), singleNodePods), s.getKey() + " leaves the single-node pod alone");
    }

    SluiceConfig cfg = clusterConfig(docs);
    Set<Integer> clusterPorts = Set.of(cfg.cluster().port(), cfg.cluster().eventBusPort());
    assertTrue(((List<?>) get(policy, "spec", "policyTypes")).contains("Ingress"), "the policy filters ingress");
    Set<Integer> fromPeers = new HashSet<>();
    boolean httpOpen = false;
    List<Map<String, Object>> rules = cast(get(policy, "spec", "ingress"));
    for (Map<String, Object> rule : rules) {
      List<Map<String, Object>> rulePorts = cast(rule.get("ports"));
      assertNotNull(rulePorts, "every ingress rule names its ports (none would mean all of them)");
      Set<Integer> numbers = rulePorts.stream().map(p -> (Integer) p.get("port")).collect(Collectors.toSet());
      List<Map<String, Object>> from = cast(rule.get("from"));
      if (from == null) {
        assertTrue(numbers.stream().noneMatch(clusterPorts::contains), "no rule opens a cluster port to all");
        httpOpen |= numbers.contains(cfg.http().port());
      } else {
        for (Map<String, Object> peer : from) {
          assertEquals(Set.of("podSelector"), peer.keySet(),
              "peers are pods of this namespace: no namespaceSelector, no ipBlock");
          assertTrue(selects(get(peer, "podSelector", "matchLabels"), pods), "peers are cluster pods: " + peer);
        }
        fromPeers.addAll(numbers);
      }
    }
    assertEquals(clusterPorts, fromPeers, "the nodes reach each other on cluster.port and cluster.eventBusPort");
    assertTrue(httpOpen, "the client port stays open, as in the single-node variant");
  }

  @Test
  void theClusterPodsRunAsTheSingleNodePodDoes() throws Exception {
    Map<String, List<Map<String, Object>>> docs = documents();
    Map<String, Object> single = cast(get(kind(docs, "Deployment", "sluice"), "spec", "template", "spec"));
    Map<String, Object> cluster = cast(get(kind(docs, "Deployment", CLUSTER), "spec", "template", "spec"));
    for (String key : List.of("securityContext", "volumes")) {
      assertEquals(single.get(key), cluster.get(key), "the pods' " + key);
    }
    Map<String, Object> singleContainer = container(docs);
    Map<String, Object> clusterContainer = container(docs, CLUSTER);
    for (String key : List.of("image", "securityContext", "resources", "volumeMounts", "startupProbe", "livenessProbe")) {
      assertEquals(singleContainer.get(key), clusterContainer.get(key), "the containers' " + key);
    }
  }

  @Test
  void theClusterStopFitsInItsGracePeriod() throws Exception {
    Map<String, List<Map<String, Object>>> docs = documents();
    int podGraceSeconds = (Integer) get(kind(docs, "Deployment", CLUSTER), "spec", "template", "spec",
        "terminationGracePeriodSeconds");
    int sluiceGraceMillis = clusterConfig(docs).ops().shutdownGraceMillis();
    assertEquals(30, podGraceSeconds);
    assertTrue(podGraceSeconds * 1000L > sluiceGraceMillis + 5_000,
        "terminationGracePeriodSeconds (" + podGraceSeconds + " s) leaves room after the graceful stop, hand-over"
            + " included (" + sluiceGraceMillis + " ms), for the JVM to exit");
  }

  @Test
  void theClusterSecretReferencesPointAtTheExampleSecrets() throws Exception {
    Map<String, List<Map<String, Object>>> docs = documents();
    List<Map<String, Object>> containerEnv = cast(container(docs, CLUSTER).get("env"));
    Map<String, Object> refs = new HashMap<>();
    for (Map<String, Object> e : containerEnv) {
      Object ref = get(e, "valueFrom", "secretKeyRef");
      if (ref != null) {
        refs.put((String) e.get("name"), ref);
        Map<String, Object> secret = kind(docs, "Secret", (String) get(ref, "name"));
        assertTrue(((Map<?, ?>) secret.get("stringData")).containsKey(get(ref, "key")),
            e.get("name") + " reads a key an example Secret shows");
      }
    }
    assertEquals(CLUSTER, get(refs.get("SLUICE_CLUSTER_SECRET"), "name"), "the cluster secret's own Secret");
    assertEquals("secret", get(refs.get("SLUICE_CLUSTER_SECRET"), "key"));
    assertEquals(null, get(refs.get("SLUICE_CLUSTER_SECRET"), "optional"), "beyond loopback it is required");
    assertNotNull(refs.get("SLUICE_PG_URL"), "the PostgreSQL URL comes from a Secret");
    assertNotNull(refs.get("SLUICE_MANAGEMENT_TOKEN"), "the management token comes from a Secret");
  }

  @Test
  void theDockerfileRunsThePomsJarAsTheDeploymentsNonRootUser() throws Exception {
    String pom = Files.readString(Path.of("pom.xml"));
    Matcher shaded = Pattern.compile("<outputFile>\\$\\{project.build.directory}/([^<]+)</outputFile>").matcher(pom);
    assertTrue(shaded.find(), "pom.xml names its runnable jar (the shade plugin's output file)");
    String jar = "target/" + shaded.group(1);
    String docker = dockerfile();
    assertTrue(docker.contains("COPY --from=build /src/" + jar + " "), "the Dockerfile copies " + jar);
    Matcher user = Pattern.compile("(?m)^USER (\\d+)").matcher(docker);
    assertTrue(user.find(), "the image runs as a numeric user");
    assertTrue(Integer.parseInt(user.group(1)) > 0, "not root");
    assertEquals(Integer.parseInt(user.group(1)),
        get(kind(documents(), "Deployment", "sluice"), "spec", "template", "spec", "securityContext", "runAsUser"));
    assertTrue(docker.contains("ENTRYPOINT [\"java\""), "exec form, so SIGTERM reaches the JVM");
  }

  @Test
  void theImageRunsTheJdkAndFlagsOperationsMdRecommends() throws Exception {
    String docker = dockerfile();
    Matcher run = Pattern.compile("(?m)^FROM eclipse-temurin:(\\d+)-jre$").matcher(docker);
    assertTrue(run.find(), "the run stage is a Temurin JRE");
    int jdk = Integer.parseInt(run.group(1));
    Matcher env = Pattern.compile("(?m)^ENV JDK_JAVA_OPTIONS=\"([^\"]*)\"$").matcher(docker);
    assertTrue(env.find(), "the collector flags are in JDK_JAVA_OPTIONS, which an operator may replace");
    JvmFlagSets.FlagSet newest = JvmFlagSets.documented().stream().filter(s -> s.minimumJdk() <= jdk)
        .max(Comparator.comparingInt(JvmFlagSets.FlagSet::minimumJdk)).orElseThrow();
    assertEquals(newest.flags(), env.group(1), "the image's flags are operations.md's for JDK " + newest.minimumJdk());
    assertTrue(docker.contains("\"-XX:InitialRAMPercentage=75\", \"-XX:MaxRAMPercentage=75\""),
        "a fixed heap from the container's limit, so AlwaysPreTouch touches all of it at start");
  }
}
