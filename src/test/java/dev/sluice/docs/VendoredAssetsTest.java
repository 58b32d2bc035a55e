package dev.sluice.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The console's files keep the promises of design/console.md §2.3 and §2.8: the vendored uPlot
 * is the reviewed copy its README describes (each SHA-256 matches, the licence ships beside it),
 * nothing loads from another origin (the console works offline and its CSP allows only 'self'),
 * and no file builds markup from strings or runs code from text, since message bodies are
 * untrusted and the CSP forbids inline script and style.
 */
class VendoredAssetsTest {
  static final Path CONSOLE = Path.of("src/main/resources/webroot/console");
  static final Path VENDOR = CONSOLE.resolve("vendor");
  /** A README table row: | `file` | … | `sha256` |. */
  static final Pattern SUM_ROW = Pattern.compile("^\\|\\s*`([^`]+)`\\s*\\|.*\\|\\s*`([0-9a-f]{64})`\\s*\\|\\s*$",
      Pattern.MULTILINE);
  /** URLs that name something without loading it: the SVG namespace, uPlot's banner comment. */
  static final Set<String> NOT_LOADED = Set.of("http://www.w3.org/2000/svg", "https://github.com/leeoniya/uPlot");
  static final Pattern ABSOLUTE_URL = Pattern.compile("(?:https?:)?//[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)+[^\\s\"'`)]*");
  /** Loads whose target is not a relative path: attributes, CSS url()/@import, ES imports. */
  static final List<Pattern> FOREIGN_LOADS = List.of(
      Pattern.compile("(?:src|href|action)\\s*=\\s*[\"']?(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)"),
      Pattern.compile("url\\(\\s*[\"']?(?![\"']?(?:\\.|/[^/]|#|data:image))"),
      Pattern.compile("@import"),
      Pattern.compile("(?:\\bfrom|\\bimport)\\s*\\(?\\s*[\"'](?![./])"));
  static final Map<String, Pattern> FORBIDDEN = forbidden();

  static Map<String, Pattern> forbidden() {
    Map<String, Pattern> m = new LinkedHashMap<>();
    m.put("innerHTML", Pattern.compile("\\binnerHTML\\b"));
    m.put("outerHTML", Pattern.compile("\\bouterHTML\\b"));
    m.put("insertAdjacentHTML", Pattern.compile("\\binsertAdjacentHTML\\b"));
    m.put("document.write", Pattern.compile("\\bdocument\\.write"));
    m.put("eval", Pattern.compile("\\beval\\s*\\("));
    m.put("new Function", Pattern.compile("\\bnew\\s+Function\\b"));
    m.put("string timer", Pattern.compile("\\bset(?:Timeout|Interval)\\s*\\(\\s*[\"'`]"));
    m.put("cssText", Pattern.compile("\\bcssText\\b"));
    m.put("style attribute", Pattern.compile("setAttribute\\(\\s*[\"']style|\\sstyle\\s*="));
    m.put("inline handler", Pattern.compile("<[^>]*\\son[a-z]+\\s*=", Pattern.CASE_INSENSITIVE));
    m.put("inline <script>", Pattern.compile("<script(?![^>]*\\ssrc=)[^>]*>", Pattern.CASE_INSENSITIVE));
    m.put("<style>", Pattern.compile("<style\\b", Pattern.CASE_INSENSITIVE));
    m.put("javascript: URL", Pattern.compile("javascript:", Pattern.CASE_INSENSITIVE));
    return m;
  }

  static List<Path> files() throws IOException {
    try (Stream<Path> all = Files.walk(CONSOLE)) {
      return all.filter(Files::isRegularFile).filter(p -> !p.toString().endsWith(".md")).sorted().toList();
    }
  }

  @Test
  void theVendoredFilesAreTheOnesTheReadmeSums() throws IOException, NoSuchAlgorithmException {
    Matcher rows = SUM_ROW.matcher(Files.readString(VENDOR.resolve("README.md")));
    Map<String, String> sums = new LinkedHashMap<>();
    while (rows.find()) {
      sums.put(rows.group(1), rows.group(2));
    }
    assertEquals(Set.of("uPlot.iife.min.js", "uPlot.min.css", "uPlot.LICENSE"), sums.keySet());
    for (Map.Entry<String, String> e : sums.entrySet()) {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(VENDOR.resolve(e.getKey())));
      assertEquals(e.getValue(), HexFormat.of().formatHex(digest), e.getKey() + " differs from the copy vendor/README.md sums");
    }
    try (Stream<Path> vendored = Files.list(VENDOR)) {
      Set<String> expected = Set.of("README.md", "uplot.js", "uPlot.iife.min.js", "uPlot.min.css", "uPlot.LICENSE");
      List<String> unlisted = vendored.map(p -> p.getFileName().toString()).filter(n -> !expected.contains(n)).toList();
      assertEquals(List.of(), unlisted, "files in vendor/ that its README does not account for");
    }
  }

  @Test
  void uPlotsLicenceShipsBesideIt() throws IOException {
    String licence = Files.readString(VENDOR.resolve("uPlot.LICENSE"));
    assertTrue(licence.contains("The MIT License") && licence.contains("Leon Sorokin")
        && licence.contains("THE SOFTWARE IS PROVIDED \"AS IS\""), "uPlot.LICENSE is uPlot's MIT licence");
    assertTrue(Files.readString(VENDOR.resolve("README.md")).contains("uPlot.LICENSE"));
  }

  @Test
  void nothingLoadsFromAnAbsoluteUrl() throws IOException {
    List<String> found = new ArrayList<>();
    for (Path file : files()) {
      String text = Files.readString(file);
      Matcher url = ABSOLUTE_URL.matcher(text);
      while (url.find()) {
        if (!NOT_LOADED.contains(url.group())) {
          found.add(file + ": " + url.group());
        }
      }
      for (Pattern load : FOREIGN_LOADS) {
        Matcher m = load.matcher(text);
        while (m.find()) {
          found.add(file + ": " + excerpt(text, m.start()));
        }
      }
    }
    assertEquals(List.of(), found, "the console must load only its own files (CSP 'self', offline)");
  }

  @Test
  void noFileBuildsMarkupFromStringsOrRunsCodeFromText() throws IOException {
    List<String> found = new ArrayList<>();
    for (Path file : files()) {
      String text = Files.readString(file);
      for (Map.Entry<String, Pattern> rule : FORBIDDEN.entrySet()) {
        Matcher m = rule.getValue().matcher(text);
        while (m.find()) {
          found.add(file + ": " + rule.getKey() + " at \"" + excerpt(text, m.start()) + "\"");
        }
      }
    }
    assertEquals(List.of(), found, "design/console.md §2.3: textContent only, no inline script or style");
  }

  @Test
  void thePageLoadsUplotBeforeTheModulesAndOnlyFromVendor() throws IOException {
    String index = Files.readString(CONSOLE.resolve("index.html"));
    int uplot = index.indexOf("<script src=\"vendor/uPlot.iife.min.js\" defer></script>");
    int main = index.indexOf("<script type=\"module\" src=\"app/main.js\"></script>");
    assertTrue(uplot > 0 && main > uplot, "uPlot's IIFE (a deferred classic script) comes before the modules");
    assertEquals("export default globalThis.uPlot;",
        Files.readString(VENDOR.resolve("uplot.js")).lines().filter(l -> !l.startsWith("//")).findFirst().orElse(""));
  }

  static String excerpt(String text, int at) {
    return text.substring(Math.max(0, at - 20), Math.min(text.length(), at + 40)).replace('\n', ' ');
  }
}
