package dev.sluice.access;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.model.JsonText;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Random identity and queue policies, decided by the evaluator and by a reference written from
 * the rule alone (deny anywhere wins; own account needs one allow, another account both, a
 * service the queue policy's), with hand-made truth tables instead of pattern matching. Shuffling
 * the statements must never change a decision: evaluation order is where such rules break.
 */
class AccessEvaluatorRandomizedTest {
  static final String A = "111122223333";
  static final String B = "444455556666";
  static final String USER_A = "arn:aws:iam::" + A + ":user/u";
  static final List<String> QUEUES = List.of(
      "arn:aws:sqs:us-east-1:" + A + ":orders", "arn:aws:sqs:us-east-1:" + A + ":payments",
      "arn:aws:sqs:eu-west-1:" + B + ":inbox");
  static final List<String> ACTIONS = List.of("SendMessage", "ReceiveMessage", "DeleteMessage", "PurgeQueue", "DeleteQueue");
  /** Of ACTIONS, what no queue policy grants another account or a service (SQS: limitations of custom policies). */
  static final Set<String> OWNER_ONLY = Set.of("DeleteQueue");

  /** Action patterns and, by hand, which of ACTIONS each covers. */
  static final Map<String, Set<String>> ACTION_TABLE = Map.of(
      "*", Set.copyOf(ACTIONS),
      "sqs:*", Set.copyOf(ACTIONS),
      "sqs:SendMessage", Set.of("SendMessage"),
      "sqs:Receive*", Set.of("ReceiveMessage"),
      "sqs:Delete*", Set.of("DeleteMessage", "DeleteQueue"),
      "SQS:deletemessage", Set.of("DeleteMessage"),
      "sqs:*Message", Set.of("SendMessage", "ReceiveMessage", "DeleteMessage"));

  /** Resource patterns and, by hand, which of QUEUES each covers. */
  static final Map<String, Set<String>> RESOURCE_TABLE = Map.of(
      "*", Set.copyOf(QUEUES),
      QUEUES.get(0), Set.of(QUEUES.get(0)),
      "arn:aws:sqs:*:" + A + ":*", Set.of(QUEUES.get(0), QUEUES.get(1)),
      "arn:aws:sqs:eu-*:*:*", Set.of(QUEUES.get(2)),
      "arn:aws:sqs:us-east-1:" + A + ":pay*", Set.of(QUEUES.get(1)));

  static final List<String> PRINCIPALS = List.of(
      "\"*\"", "{\"AWS\":\"" + A + "\"}", "{\"AWS\":\"arn:aws:iam::" + B + ":root\"}", "{\"AWS\":\"" + USER_A + "\"}",
      "{\"Service\":\"sns.amazonaws.com\"}");

  record Stmt(boolean deny, String principal, String action, String resource) {
    String json() {
      return "{\"Effect\":\"" + (deny ? "Deny" : "Allow") + "\""
          + (principal == null ? "" : ",\"Principal\":" + principal)
          + ",\"Action\":\"" + action + "\",\"Resource\":\"" + resource + "\"}";
    }

    boolean covers(String act, String queue) {
      return ACTION_TABLE.get(action).contains(act) && RESOURCE_TABLE.get(resource).contains(queue);
    }
  }

  /** Who asks: account (null for SNS), principal ARN, whether its identity is "full access". */
  record Who(String account, String arn, boolean root) {}

  static final List<Who> WHO = List.of(
      new Who(A, "arn:aws:iam::" + A + ":root", true), new Who(A, USER_A, false),
      new Who(B, "arn:aws:iam::" + B + ":root", true), new Who(B, "arn:aws:iam::" + B + ":user/v", false),
      new Who(null, "sns.amazonaws.com", false));

  /** The reference reading of a principal, from the Principal element's documentation. */
  static boolean names(String principal, Who who, boolean deny, String owner) {
    int i = PRINCIPALS.indexOf(principal);
    return switch (i) {
      case 0 -> true;
      case 1 -> A.equals(who.account()) && (deny || !A.equals(owner) || who.root());
      case 2 -> B.equals(who.account()) && (deny || !B.equals(owner) || who.root());
      case 3 -> who.arn().equals(USER_A);
      case 4 -> who.account() == null;
      default -> throw new IllegalStateException(principal);
    };
  }

  static boolean reference(Who who, List<Stmt> identity, List<Stmt> queuePolicy, String act, String queue) {
    String owner = queue.split(":")[4];
    boolean idAllow = who.root() || identity.stream().anyMatch(s -> !s.deny() && s.covers(act, queue));
    boolean idDeny = identity.stream().anyMatch(s -> s.deny() && s.covers(act, queue));
    boolean resAllow = queuePolicy.stream().anyMatch(s -> !s.deny() && s.covers(act, queue) && names(s.principal(), who, false, owner));
    boolean resDeny = queuePolicy.stream().anyMatch(s -> s.deny() && s.covers(act, queue) && names(s.principal(), who, true, owner));
    if (idDeny || resDeny) {
      return false;
    }
    if (who.account() == null) {
      return resAllow && !OWNER_ONLY.contains(act);
    }
    return who.account().equals(owner) ? idAllow || resAllow : idAllow && resAllow && !OWNER_ONLY.contains(act);
  }

  static <T> T pick(Random r, List<T> from) {
    return from.get(r.nextInt(from.size()));
  }

  static List<Stmt> statements(Random r, boolean withPrincipal, int max) {
    List<String> actions = new ArrayList<>(ACTION_TABLE.keySet());
    List<String> resources = new ArrayList<>(RESOURCE_TABLE.keySet());
    Collections.sort(actions);
    Collections.sort(resources);
    List<Stmt> out = new ArrayList<>();
    for (int n = r.nextInt(max + 1); n > 0; n--) {
      out.add(new Stmt(r.nextInt(4) == 0, withPrincipal ? pick(r, PRINCIPALS) : null, pick(r, actions), pick(r, resources)));
    }
    return out;
  }

  static Requester requester(Who who, List<Stmt> identity) {
    if (who.account() == null) {
      return Requester.service(who.arn());
    }
    IdentityPolicy permissions = who.root() ? IdentityPolicy.FULL_ACCESS
        : IdentityPolicy.parse(identity.stream().map(s -> JsonText.parse(s.json())).toList());
    return Requester.of(who.account(), who.arn(), permissions);
  }

  static PolicyDocument queuePolicy(List<Stmt> statements) {
    List<String> json = statements.stream().map(Stmt::json).toList();
    return QueuePolicy.parse("{\"Statement\":[" + String.join(",", json) + "]}", JsonText::parseObject);
  }

  @Test
  void agreesWithTheReferenceWhateverTheStatementOrder() {
    long seed = Long.getLong("sluice.seed", System.nanoTime());
    Random r = new Random(seed);
    Map<Boolean, Integer> outcomes = new HashMap<>();
    for (int round = 0; round < 3000; round++) {
      Who who = pick(r, WHO);
      // A service has no identity policy of its own, and a root's is full access, nothing else.
      List<Stmt> identity = who.account() == null || who.root() ? new ArrayList<>() : statements(r, false, 4);
      List<Stmt> policy = statements(r, true, 6);
      String act = pick(r, ACTIONS);
      String queue = pick(r, QUEUES);
      boolean expected = reference(who, identity, policy, act, queue);
      String context = "seed " + seed + ", round " + round + ": " + who + " " + act + " " + queue
          + "\nidentity " + identity + "\npolicy " + policy;
      for (int shuffle = 0; shuffle < 3; shuffle++) {
        Decision d = AccessEvaluator.decide(
            new AccessRequest(requester(who, identity), act, queue, queuePolicy(policy), RequestContext.NONE));
        assertEquals(expected, d.allowed(), context);
        Collections.shuffle(identity, r);
        Collections.shuffle(policy, r);
      }
      outcomes.merge(expected, 1, Integer::sum);
    }
    // Both answers must be common, or the comparison proves little.
    assertEquals(true, outcomes.getOrDefault(true, 0) > 300 && outcomes.getOrDefault(false, 0) > 300,
        "outcomes " + outcomes + " (seed " + seed + ")");
  }
}
