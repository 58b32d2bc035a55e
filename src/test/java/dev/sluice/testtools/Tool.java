package dev.sluice.testtools;

/**
 * A program from outside the JDK that some tests run, with what to install where it is missing.
 * Tests ask {@link Tools} for it, and declare it with {@link NeedsTools} so that a run checks it
 * before the first test starts ({@link ToolCheck}).
 */
public enum Tool {
  POSTGRESQL("PostgreSQL (initdb, pg_ctl, postgres)",
      "apt install postgresql / brew install postgresql@17, or set SLUICE_TEST_PG_BIN to the directory holding"
          + " initdb and pg_ctl (on Linux and macOS the binaries from Maven Central are used where none is installed)"),
  AWS_CLI("the AWS CLI (aws)", "apt install awscli / brew install awscli"),
  PYTHON_BOTO3("python3 with boto3", "apt install python3-boto3 / pip3 install --user boto3"),
  CHROMIUM("Chromium or Chrome",
      "apt install chromium (Ubuntu: snap install chromium) / brew install --cask chromium,"
          + " or set SLUICE_TEST_CHROMIUM to the browser's executable"),
  NODE("Node.js 20+ (node)", "apt install nodejs / brew install node"),
  NPM("npm", "apt install npm / brew install node");

  private final String title;
  private final String install;

  Tool(String title, String install) {
    this.title = title;
    this.install = install;
  }

  /** What the tool is, as a person would name it. */
  public String title() {
    return title;
  }

  /** How to install it: Debian or Ubuntu first, then macOS with Homebrew. */
  public String install() {
    return install;
  }
}
