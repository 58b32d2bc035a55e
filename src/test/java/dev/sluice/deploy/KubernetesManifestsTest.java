package dev.sluice.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConfigKey;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.http.HealthEndpoints;
import dev.sluice.metrics.MetricNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
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
 * periods, the Secret references, and the Dockerfile's jar, port and user.
 */
class KubernetesManifestsTest {
  static final Path K8S = Path.of("k8s");
  static final String QUEUE_DEPTH = MetricNames.QUEUE_VISIBLE.replace('.', '_');

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
    return cast(get(kind(docs, "Deployment", "sluice"), "spec", "template", "spec", "containers", 0));
  }

  static Map<String, String> configMapData(Map<String, List<Map<String, Object>>> docs) {
    Map<String, Object> data = cast(get(kind(docs, "ConfigMap", "sluice"), "data"));
    return data.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> String.valueOf(e.getValue())));
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
}
