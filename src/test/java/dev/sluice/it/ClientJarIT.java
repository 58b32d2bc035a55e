package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.client.ProtocolAddresses;
import dev.sluice.client.SluiceClientException;
import dev.sluice.push.PushAddresses;
import dev.sluice.testtools.ServerJar;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The Java client's artifact as the build packs it (src/site/markdown/design/java-client.md §2.2):
 * the client's jar holds the client and nothing else, the runnable server jar holds neither the
 * client nor Mutiny, and the client's pom names exactly the vertx-core and Mutiny this build was
 * compiled and tested with. File reads only; failsafe passes the paths.
 */
class ClientJarIT {
  private static final String CLIENT = "dev/sluice/client/";
  /** The directories and manifest any jar has besides its contents. */
  private static final Set<String> FRAME = Set.of("META-INF/", "META-INF/MANIFEST.MF", "dev/", "dev/sluice/");

  private static Path clientJar() {
    return Path.of(System.getProperty("sluice.clientJar"));
  }

  @Test
  void theClientJarHoldsOnlyTheClientPackage() throws IOException {
    List<String> names = entries(clientJar());
    assertTrue(names.contains(CLIENT + "SluiceClientException.class"), "the client's classes: " + names);
    assertEquals(List.of(), names.stream().filter(n -> !n.startsWith(CLIENT) && !FRAME.contains(n)).toList(),
        "only dev/sluice/client/** and a manifest (no server class, no server pom under META-INF/maven)");
  }

  @Test
  void theClientSourcesJarHoldsOnlyTheClientsSources() throws IOException {
    Path sources = clientJar().resolveSibling(clientJar().getFileName().toString().replace("-client.jar",
        "-client-sources.jar"));
    List<String> names = entries(sources);
    assertTrue(names.contains(CLIENT + "SluiceClientException.java"), "the client's sources: " + names);
    assertEquals(List.of(), names.stream().filter(n -> !n.startsWith(CLIENT) && !FRAME.contains(n)).toList());
  }

  @Test
  void theRunnableJarHoldsNeitherTheClientNorMutiny() throws IOException {
    List<String> names = entries(ServerJar.jar());
    assertTrue(names.contains("dev/sluice/Main.class"), "the server is in it");
    // (META-INF/maven/org.jctools is Netty's: netty-common describes the JCTools it relocated.)
    assertEquals(List.of(), names.stream().filter(n -> n.startsWith(CLIENT) || n.startsWith("io/smallrye/")
        || n.startsWith("org/jctools/") || n.startsWith("META-INF/maven/io.smallrye")).toList());
  }

  @Test
  void theTestsLoadTheClientFromItsJar() throws Exception {
    Path loadedFrom = Path.of(SluiceClientException.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    assertEquals(clientJar().toRealPath(), loadedFrom.toRealPath(),
        "the ITs run against the packaged client, not target/classes");
  }

  /** The client re-declares the protocol's addresses (it may not import the server's): the same ones. */
  @Test
  void theClientSpeaksTheServersAddresses() {
    assertEquals(Set.copyOf(PushAddresses.REQUESTS), Set.copyOf(ProtocolAddresses.REQUESTS));
    assertEquals(PushAddresses.DELIVERY_PREFIX, ProtocolAddresses.DELIVERY_PREFIX);
  }

  @Test
  void theClientPomNamesTheClientAndExactlyTheVersionsThisBuildUses() throws Exception {
    Path pom = Path.of(System.getProperty("sluice.clientPom"));
    String text = Files.readString(pom);
    assertFalse(text.contains("${"), "every expression of src/client/pom.xml is filled in");
    Element project = xml(pom);
    assertEquals("dev.sluice", child(project, "groupId"));
    assertEquals("sluice-client", child(project, "artifactId"));
    assertEquals(child(xml(Path.of("pom.xml")), "version"), child(project, "version"), "the project's version");
    assertFalse(child(project, "name").isEmpty());
    assertFalse(child(project, "description").isEmpty());

    List<String> dependencies = new ArrayList<>();
    Element list = children(project, "dependencies").get(0);
    for (Element d : children(list, "dependency")) {
      assertTrue(children(d, "scope").isEmpty() && children(d, "optional").isEmpty(),
          "the client's users get both at compile scope: " + child(d, "artifactId"));
      dependencies.add(child(d, "groupId") + ":" + child(d, "artifactId") + ":" + child(d, "version"));
    }
    // Compared with the jars on this test's classpath: the versions the build resolved from the
    // main pom (a literal there that drifted from the property the client pom is filled from shows).
    assertEquals(List.of("io.vertx:vertx-core:" + resolvedVersion("io.vertx", "vertx-core"),
        "io.smallrye.reactive:mutiny:" + resolvedVersion("io.smallrye.reactive", "mutiny")), dependencies);
  }

  private static List<String> entries(Path jar) throws IOException {
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      return zip.stream().map(ZipEntry::getName).toList();
    }
  }

  /** The version in the Maven descriptor of the jar on this classpath that holds groupId:artifactId. */
  private static String resolvedVersion(String groupId, String artifactId) throws IOException {
    String descriptor = "META-INF/maven/" + groupId + "/" + artifactId + "/pom.properties";
    try (InputStream in = ClientJarIT.class.getClassLoader().getResourceAsStream(descriptor)) {
      assertTrue(in != null, descriptor + " on the test classpath");
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version");
    }
  }

  private static Element xml(Path file) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(false);
    return factory.newDocumentBuilder().parse(file.toFile()).getDocumentElement();
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> found = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        found.add(e);
      }
    }
    return found;
  }

  /** The text of {@code parent}'s one direct child {@code name}. */
  private static String child(Element parent, String name) {
    List<Element> found = children(parent, name);
    assertEquals(1, found.size(), "one <" + name + "> in <" + parent.getTagName() + ">");
    return found.get(0).getTextContent().trim();
  }
}
