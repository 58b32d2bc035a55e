package dev.sluice.testtools;

/** The fenced code blocks of a Markdown page, which tests run or read as the page gives them. */
public final class MarkdownBlocks {
  private MarkdownBlocks() {
  }

  /** The body of the first fenced block after {@code marker}; fails if the page has no such marker. */
  public static String after(String text, String marker) {
    int at = text.indexOf(marker);
    if (at < 0) {
      throw new IllegalStateException("the page has no " + marker);
    }
    int open = text.indexOf('\n', text.indexOf("```", at)) + 1;
    return text.substring(open, text.indexOf("```", open));
  }
}
