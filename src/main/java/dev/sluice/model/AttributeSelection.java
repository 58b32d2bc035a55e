package dev.sluice.model;

import dev.sluice.api.MessageAttributeValue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which attributes a ReceiveMessage asked for (AWS API reference: ReceiveMessage): system attributes from the
 * union of AttributeNames and MessageSystemAttributeNames, user attributes by exact name, by
 * {@code prefix.*}, or all. Immutable.
 */
public final class AttributeSelection {
  public static final AttributeSelection NONE = new AttributeSelection(false, Set.of(), false, Set.of(), List.of());

  private final boolean allSystem;
  private final Set<String> system;
  private final boolean allUser;
  private final Set<String> userNames;
  private final List<String> userPrefixes;

  private AttributeSelection(
      boolean allSystem, Set<String> system, boolean allUser, Set<String> userNames, List<String> userPrefixes) {
    this.allSystem = allSystem;
    this.system = system;
    this.allUser = allUser;
    this.userNames = userNames;
    this.userPrefixes = userPrefixes;
  }

  public static AttributeSelection of(
      Collection<String> attributeNames,
      Collection<String> messageSystemAttributeNames,
      Collection<String> messageAttributeNames) {
    Set<String> system = new HashSet<>();
    if (attributeNames != null) {
      system.addAll(attributeNames);
    }
    if (messageSystemAttributeNames != null) {
      system.addAll(messageSystemAttributeNames);
    }
    boolean allSystem = system.remove("All");
    boolean allUser = false;
    Set<String> names = new HashSet<>();
    List<String> prefixes = new ArrayList<>();
    if (messageAttributeNames != null) {
      for (String n : messageAttributeNames) {
        if (n.equals("All") || n.equals(".*") || n.equals("*")) {
          allUser = true;
        } else if (n.endsWith(".*")) {
          prefixes.add(n.substring(0, n.length() - 2));
        } else {
          names.add(n);
        }
      }
    }
    return new AttributeSelection(allSystem, system, allUser, names, prefixes);
  }

  public boolean wantsSystem(String name) {
    return allSystem || system.contains(name);
  }

  /** The user attributes to return, sorted by name, or null when none are selected or present. */
  public Map<String, MessageAttributeValue> selectUser(Map<String, MessageAttributeValue> attributes) {
    if (attributes == null || attributes.isEmpty()) {
      return null;
    }
    if (allUser) {
      return attributes;
    }
    if (userNames.isEmpty() && userPrefixes.isEmpty()) {
      return null;
    }
    TreeMap<String, MessageAttributeValue> out = new TreeMap<>();
    for (Map.Entry<String, MessageAttributeValue> e : attributes.entrySet()) {
      if (userNames.contains(e.getKey()) || matchesPrefix(e.getKey())) {
        out.put(e.getKey(), e.getValue());
      }
    }
    return out.isEmpty() ? null : out;
  }

  private boolean matchesPrefix(String name) {
    for (String p : userPrefixes) {
      if (name.startsWith(p)) {
        return true;
      }
    }
    return false;
  }
}
