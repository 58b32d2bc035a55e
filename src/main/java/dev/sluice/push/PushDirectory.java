package dev.sluice.push;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Which connection owns which delivery address. Written by the push service when a subscription is
 * made and ended, read by the bridges (on the HTTP and TCP event loops) when a client asks to
 * register on an address: only the connection that subscribed may.
 */
final class PushDirectory {
  private final ConcurrentMap<String, String> ownerByAddress = new ConcurrentHashMap<>();
  private final Set<String> registered = ConcurrentHashMap.newKeySet();

  void add(String address, String connectionId) {
    ownerByAddress.put(address, connectionId);
  }

  void remove(String address) {
    ownerByAddress.remove(address);
    registered.remove(address);
  }

  /** Records the address's registration; false when it is registered already. */
  boolean register(String address) {
    return registered.add(address);
  }

  boolean owns(String connectionId, String address) {
    return connectionId != null && connectionId.equals(ownerByAddress.get(address));
  }
}
