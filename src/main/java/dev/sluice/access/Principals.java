package dev.sluice.access;

import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Principal (or NotPrincipal) of a queue policy statement (IAM User Guide: AWS JSON policy
 * elements: Principal): {@code "*"}, {@code {"AWS": ...}} with {@code *}, 12-digit account ids,
 * account root ARNs or IAM user and role ARNs, and {@code {"Service": ...}} with service principals
 * such as {@code sns.amazonaws.com}. An account id and its root ARN are the same principal. Immutable.
 */
final class Principals {
  private static final Pattern ACCOUNT = Pattern.compile("\\d{12}");
  private static final String PARTITION = "arn:aws(?:-cn|-us-gov)?:";
  private static final Pattern ROOT = Pattern.compile(PARTITION + "iam::(\\d{12}):root");
  private static final Pattern IDENTITY = Pattern.compile(PARTITION
      + "(?:iam::\\d{12}:(?:user|role)/[\\w+=,.@/-]+|sts::\\d{12}:assumed-role/[\\w+=,.@-]+/[\\w+=,.@-]+)");
  private static final Pattern SERVICE = Pattern.compile("[a-z0-9-]+(?:\\.[a-z0-9-]+)*\\.amazonaws\\.com(?:\\.cn)?");

  private final boolean anyone;
  private final Set<String> accounts = new HashSet<>();
  private final Set<String> identities = new HashSet<>();
  private final Set<String> services = new HashSet<>();
  private int count;

  private Principals(boolean anyone) {
    this.anyone = anyone;
  }

  static Principals parse(Object value, String where) {
    if ("*".equals(value)) {
      Principals p = new Principals(true);
      p.count = 1;
      return p;
    }
    Map<String, Object> typed = PolicyValues.object(value, where);
    if (typed.isEmpty()) {
      throw PolicyException.invalid(where + " names no principal");
    }
    boolean anyAws = typed.containsKey("AWS") && PolicyValues.strings(typed.get("AWS"), where).contains("*");
    Principals p = new Principals(anyAws);
    for (Map.Entry<String, Object> e : typed.entrySet()) {
      switch (e.getKey()) {
        case "AWS" -> PolicyValues.strings(e.getValue(), where + ".AWS").forEach(v -> p.addAws(v, where));
        case "Service" -> PolicyValues.strings(e.getValue(), where + ".Service").forEach(v -> p.addService(v, where));
        case "Federated", "CanonicalUser" -> throw PolicyException.unsupported(
            where + ": principals of type " + PolicyValues.show(e.getKey()) + " are not supported (AWS, Service)");
        default -> throw PolicyException.invalid(where + ": unknown principal type " + PolicyValues.show(e.getKey()));
      }
    }
    return p;
  }

  private void addAws(String v, String where) {
    count++;
    Matcher root = ROOT.matcher(v);
    if (v.equals("*")) {
      return;
    } else if (ACCOUNT.matcher(v).matches()) {
      accounts.add(v);
    } else if (root.matches()) {
      accounts.add(root.group(1));
    } else if (IDENTITY.matcher(v).matches()) {
      identities.add(v);
    } else {
      throw PolicyException.invalid(where + ": " + PolicyValues.show(v) + " is not an AWS principal");
    }
  }

  private void addService(String v, String where) {
    count++;
    String lower = v.toLowerCase(Locale.ROOT);
    if (!SERVICE.matcher(lower).matches()) {
      throw PolicyException.invalid(where + ": " + PolicyValues.show(v) + " is not a service principal");
    }
    services.add(lower);
  }

  /** How many principals the element names: SQS allows 50 in a policy. */
  int count() {
    return count;
  }

  /**
   * Whether the requester is one of these principals. Naming an account delegates to that account
   * (IAM User Guide: Principal, AWS account principals): it covers every identity of the account in
   * a Deny, and in an Allow every identity of another account (which still needs its own identity
   * permission), but in an Allow on its own account's queue only the account itself (its root):
   * an identity of the owning account gets nothing from it beyond what its identity policy allows.
   */
  boolean matches(Requester r, String ownerAccount, boolean granting) {
    if (anyone) {
      return true;
    }
    if (r.isService()) {
      return services.contains(r.service().toLowerCase(Locale.ROOT));
    }
    if (identities.contains(r.principalArn())) {
      return true;
    }
    if (!accounts.contains(r.accountId())) {
      return false;
    }
    return !granting || !r.accountId().equals(ownerAccount) || r.isAccountRoot();
  }
}
