package dev.sluice.access;

import java.util.List;

/**
 * One statement of a policy, parsed and validated by {@link StatementParser}: whom it names (queue
 * policies only), which actions and resources it covers, under which conditions, and whether it
 * allows or denies. Each of Principal, Action and Resource may be given in its Not form, which
 * covers everything the list does not. Immutable.
 */
public final class PolicyStatement {
  private final String sid;
  private final Effect effect;
  private final Principals principals;
  private final boolean notPrincipal;
  private final List<ActionPattern> actions;
  private final boolean notAction;
  private final List<String> resources;
  private final boolean notResource;
  private final List<ConditionClause> conditions;

  PolicyStatement(String sid, Effect effect, Principals principals, boolean notPrincipal, List<ActionPattern> actions,
      boolean notAction, List<String> resources, boolean notResource, List<ConditionClause> conditions) {
    this.sid = sid;
    this.effect = effect;
    this.principals = principals;
    this.notPrincipal = notPrincipal;
    this.actions = List.copyOf(actions);
    this.notAction = notAction;
    this.resources = List.copyOf(resources);
    this.notResource = notResource;
    this.conditions = List.copyOf(conditions);
  }

  /** The statement's Sid, or null. */
  public String sid() {
    return sid;
  }

  public Effect effect() {
    return effect;
  }

  /** Whether it covers this IAM action on this resource, with every condition holding. */
  boolean covers(String action, String resourceArn, RequestContext context) {
    boolean actionListed = actions.stream().anyMatch(a -> a.matches(action));
    boolean resourceListed = resources.stream().anyMatch(r -> Arns.matches(r, resourceArn));
    return actionListed != notAction
        && resourceListed != notResource
        && conditions.stream().allMatch(c -> c.holds(context));
  }

  /**
   * Whether a queue policy statement names this requester. NotPrincipal names everyone its list
   * does not, its accounts taken broadly (every identity of the account is excepted).
   */
  boolean names(Requester r, String ownerAccount) {
    if (notPrincipal) {
      return !principals.matches(r, ownerAccount, false);
    }
    return principals.matches(r, ownerAccount, effect == Effect.ALLOW);
  }

  int actionCount() {
    return actions.size();
  }

  int principalCount() {
    return principals == null ? 0 : principals.count();
  }

  int conditionCount() {
    return conditions.size();
  }
}
