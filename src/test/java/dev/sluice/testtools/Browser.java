package dev.sluice.testtools;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * One headless Chromium page under a test's control, through Playwright ({@code browser-driver.js}
 * in {@code src/test/node/example-page}, one JSON line per command). Every command fails the test
 * with the page's own words when it fails, and so does any page error, console error or
 * Content-Security-Policy violation the page reported meanwhile, unless the test said it expects
 * one ({@link #expectProblems}: a 401 a test provokes is logged by Chromium as a console error).
 */
public final class Browser implements AutoCloseable {
  private final Process node;
  private final OutputStream in;
  private final BufferedReader out;
  private final List<Pattern> expected = new ArrayList<>();

  private Browser(Process node) {
    this.node = node;
    this.in = node.getOutputStream();
    this.out = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
  }

  public static Browser start() throws IOException, InterruptedException {
    Path dir = NodePackages.installed("example-page");
    Process node = new ProcessBuilder(Tools.node(), "browser-driver.js", Tools.chromium()).directory(dir.toFile())
        .redirectError(ProcessBuilder.Redirect.appendTo(dir.resolve("browser-driver.log").toFile())).start();
    return new Browser(node);
  }

  /** From now on, problems the page reports that match {@code pattern} do not fail the test. */
  public Browser expectProblems(String pattern) {
    expected.add(Pattern.compile(pattern));
    return this;
  }

  /** No problem is expected any more. */
  public Browser expectNoProblems() {
    expected.clear();
    return this;
  }

  public void goTo(String url) {
    call(new JsonObject().put("op", "goto").put("url", url));
  }

  public void click(String selector) {
    call(op("click", selector));
  }

  public void fill(String selector, String value) {
    call(op("fill", selector).put("value", value));
  }

  /** Presses {@code key} in {@code selector}, or wherever the focus is when {@code selector} is null. */
  public void press(String selector, String key) {
    call(op("press", selector).put("key", key));
  }

  public void select(String selector, String value) {
    call(op("select", selector).put("value", value));
  }

  public String text(String selector) {
    return (String) call(op("text", selector));
  }

  public String attribute(String selector, String name) {
    return (String) call(op("attribute", selector).put("name", name));
  }

  public int count(String selector) {
    return ((Number) call(op("count", selector))).intValue();
  }

  /** Waits (20 s at most) until an element matching {@code selector} is visible. */
  public void waitFor(String selector) {
    call(op("waitFor", selector));
  }

  /** Waits (20 s at most) until an element matching {@code selector} has {@code text} as its whole text, trimmed. */
  public void waitForText(String selector, String text) {
    call(op("waitForText", selector).put("text", text));
  }

  /** Waits (20 s at most) until no element matching {@code selector} is visible. */
  public void waitForHidden(String selector) {
    call(op("waitFor", selector).put("state", "hidden"));
  }

  public void viewport(int width, int height) {
    call(new JsonObject().put("op", "viewport").put("width", width).put("height", height));
  }

  public void colorScheme(String scheme) {
    call(new JsonObject().put("op", "colorScheme").put("value", scheme));
  }

  /** The focused element's id, or its tag name when it has none. */
  public String focused() {
    return (String) call(new JsonObject().put("op", "focused"));
  }

  /** The page's scroll width and the window's inner width: equal when nothing scrolls sideways. */
  public int[] widths() {
    JsonArray w = (JsonArray) call(new JsonObject().put("op", "scrollWidth"));
    return new int[] {w.getInteger(0), w.getInteger(1)};
  }

  /** The page's URL as the browser shows it now. */
  public String url() {
    return (String) call(new JsonObject().put("op", "url"));
  }

  public void screenshot(Path path) {
    call(new JsonObject().put("op", "screenshot").put("path", path.toAbsolutePath().toString()));
  }

  private static JsonObject op(String op, String selector) {
    return new JsonObject().put("op", op).put("selector", selector);
  }

  private synchronized Object call(JsonObject command) {
    try {
      in.write((command.encode() + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
      String line = out.readLine();
      if (line == null) {
        throw new AssertionError("the browser driver ended (see target/node-example-page/browser-driver.log)");
      }
      JsonObject answer = new JsonObject(line);
      List<String> problems = new ArrayList<>();
      for (Object p : answer.getJsonArray("problems", new JsonArray())) {
        if (expected.stream().noneMatch(e -> e.matcher((String) p).find())) {
          problems.add((String) p);
        }
      }
      if (!problems.isEmpty()) {
        throw new AssertionError("the page reported problems during " + command.encode() + ": " + problems);
      }
      if (!answer.getBoolean("ok")) {
        throw new AssertionError(command.encode() + " failed: " + answer.getString("error"));
      }
      return answer.getValue("value");
    } catch (IOException e) {
      throw new AssertionError("the browser driver is gone", e);
    }
  }

  @Override
  public void close() throws InterruptedException {
    try {
      in.write("{\"op\":\"close\"}\n".getBytes(StandardCharsets.UTF_8));
      in.flush();
    } catch (IOException gone) {
      // already ended
    }
    if (!node.waitFor(10, TimeUnit.SECONDS)) {
      // Chromium is node's child: ended with it, or it would outlive the test run.
      node.descendants().forEach(ProcessHandle::destroyForcibly);
      node.destroyForcibly();
    }
  }
}
