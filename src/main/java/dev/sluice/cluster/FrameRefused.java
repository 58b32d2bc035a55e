package dev.sluice.cluster;

/**
 * A received frame that is not taken: not authentic (a flipped bit, another secret), not a version
 * this node reads, malformed (truncated, a length beyond its bytes), or refused by the receiver's
 * anti-replay check. The message says which. No stack trace: a refusal is an expected outcome of
 * a hostile or damaged frame, counted and dropped, never a defect of this node.
 */
public final class FrameRefused extends RuntimeException {
  public FrameRefused(String reason) {
    super(reason, null, false, false);
  }
}
