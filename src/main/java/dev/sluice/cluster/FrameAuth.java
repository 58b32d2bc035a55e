package dev.sluice.cluster;

import java.util.HashMap;
import java.util.Map;

/**
 * The receiver's check of a frame that decoded, and so carried the cluster's MAC (design page
 * cluster.md, §2.8): it must come from a current member, be meant for this node (or published to
 * every member), and carry a sequence number new within that sender's window of 1,024. So a frame
 * recorded on the network and sent again, to this node or another, is refused; and since node ids
 * change on every start, so is one recorded from an earlier process.
 *
 * <p>Pure, and confined to the thread that handles received frames: the cluster node's own Vert.x
 * instance has one event loop, and every frame is checked there, after decoding. Not thread-safe.
 */
public final class FrameAuth {
  private final String self;
  private final Map<String, SequenceWindow> windows = new HashMap<>();

  /** @param self this node's id: frames for another node are refused */
  public FrameAuth(String self) {
    this.self = self;
  }

  /**
   * Takes the frame, recording its sequence number, or throws {@link FrameRefused} saying why.
   * {@code senderIsMember} is the caller's view of the membership, checked first so that nothing is
   * kept for a sender that is not one.
   */
  public void check(Frame frame, boolean senderIsMember) {
    if (!senderIsMember) {
      throw new FrameRefused("node " + frame.sender() + " is not a member");
    }
    if (frame.target() != null && !frame.target().equals(self)) {
      throw new FrameRefused("a frame for node " + frame.target() + ", not this one");
    }
    String refused = windows.computeIfAbsent(frame.sender(), s -> new SequenceWindow())
        .accept(frame.sequence());
    if (refused != null) {
      throw new FrameRefused(refused + " from node " + frame.sender());
    }
  }

  /**
   * Drops a sender's window once it can never be a member again. If its id were let in again, its
   * window would start afresh and frames recorded earlier would be taken.
   */
  public void forget(String sender) {
    windows.remove(sender);
  }
}
