package org.dise.runtime.profiles.sink.rap;

import java.util.ArrayList;
import java.util.List;

/**
 * The Range Adaptive Profiling tree (Mysore et al., "Profiling over Adaptive Ranges", Sections
 * 2.1-2.2 and 3.1): each node counts the events for which its range is the smallest covering range;
 * a node whose count exceeds SplitThreshold = eps * n / height sprouts b children with zero counts;
 * merges, batched at exponentially growing intervals, fold subtrees that no longer deserve separate
 * ranges back into their parent. Counters are never decremented, so a subtree's total is a lower
 * bound of the true count of its range (Section 4.3).
 *
 * <p>Values are unsigned {@code rangeBits}-bit numbers; a node covers {@code [lo, lo + 2^shift)}.
 * Children always cover their parent's whole range (a merge folds all of a node's children at
 * once), so an update walks from the root to a leaf.
 */
public final class RapTree {
  /** One range and its counter (Section 2.1: about 128 bits of state in hardware). */
  public static final class Node {
    final long lo;
    final int shift;
    long count;
    Node[] children;

    /** The children's shift (valid while {@code children != null}). */
    int childShift;

    Node(long lo, int shift) {
      this.lo = lo;
      this.shift = shift;
    }

    public long lo() {
      return lo;
    }

    /** The last value of the range (inclusive, unsigned). */
    public long hi() {
      return shift >= 64 ? -1L : lo + ((1L << shift) - 1);
    }

    /** log2 of the number of values the range covers. */
    public int shift() {
      return shift;
    }

    public long count() {
      return count;
    }

    /** The children, in value order, or an empty list for a leaf. */
    public List<Node> children() {
      return children == null ? List.of() : List.of(children);
    }

    /** This node's count plus every descendant's: what the tree knows of its range. */
    public long subtreeCount() {
      long s = count;
      if (children != null) {
        for (Node c : children) {
          s += c.subtreeCount();
        }
      }
      return s;
    }

    /** Whether {@code v} (unsigned) lies in this range. */
    public boolean contains(long v) {
      return shift >= 64 || (v - lo) >>> shift == 0;
    }
  }

  /**
   * Events after which the tree is out of its start-up transient [choice]: while eps * n / height
   * is a few events, almost every repeated value splits its leaf again and walks one level down,
   * and every level adds b - 1 empty siblings; on the code streams of our programs the largest tree
   * of the whole run is reached in the first 1K-8K events (docs/reproduction.md, rap).
   */
  public static final long WARMUP_EVENTS = 1 << 16;

  private static final int CACHE_SHIFT = 64 - 8;
  private final Node[] cache = new Node[1 << (64 - CACHE_SHIFT)];
  private final RapConfig config;
  private final int bitsPerLevel;
  private final int height;
  private final Node root;

  private long events;
  private int nodes = 1;
  private int maxNodes = 1;
  private int steadyMaxNodes = 1;
  private double nodeSum;
  private long splits;
  private long refusedSplits;
  private long merges;
  private long mergeInterval;
  private long nextMerge;

  /** A count no node can exceed the threshold at (the threshold only grows): a cheap pre-test. */
  private long splitAt = -1;

  public RapTree(RapConfig config) {
    this.config = config;
    this.bitsPerLevel = Integer.numberOfTrailingZeros(config.branching());
    this.height = (config.rangeBits() + bitsPerLevel - 1) / bitsPerLevel;
    this.root = new Node(0, config.rangeBits());
    this.mergeInterval = config.firstMerge();
    this.nextMerge = config.firstMerge();
  }

  public RapConfig config() {
    return config;
  }

  /** The tree's maximum height, log_b(R): the denominator of the split threshold. */
  public int height() {
    return height;
  }

  /** SplitThreshold = eps * n / height (Section 2.2; the merge threshold is the same, §3.3). */
  public double threshold() {
    return config.epsilon() * events / height;
  }

  /** Counts one event of value {@code v}; values wider than the range keep their low bits. */
  public void add(long v) {
    if (config.rangeBits() < 64) {
      v &= (1L << config.rangeBits()) - 1;
    }
    if (++events == WARMUP_EVENTS) {
      steadyMaxNodes = nodes;
    }
    // A small cache of recently updated leaves (the paper's Stage 0 buffer exploits the same
    // locality, §3.3): a leaf stays valid until it splits (it gets children) or a merge batch
    // removes it (the batch clears the cache).
    int slot = (int) ((v * 0x9E3779B97F4A7C15L) >>> CACHE_SHIFT);
    Node n = cache[slot];
    if (n == null || n.children != null || (v - n.lo) >>> n.shift != 0 && n.shift < 64) {
      n = root;
      Node[] c;
      while ((c = n.children) != null) {
        n = c[(int) ((v - n.lo) >>> n.childShift)];
      }
      cache[slot] = n;
    }
    if (++n.count > splitAt && n.shift > 0 && n.count > threshold()) {
      split(n);
    }
    nodeSum += nodes;
    if ((events & 1023) == 0) {
      splitAt = (long) threshold() - 1;
    }
    if (events >= nextMerge) {
      mergeBatch();
    }
  }

  private void split(Node n) {
    int k = Math.min(bitsPerLevel, n.shift);
    int b = 1 << k;
    if (config.maxNodes() > 0 && nodes + b > config.maxNodes()) {
      refusedSplits++; // the hardware has no free entries until the next merge frees some
      return;
    }
    Node[] c = new Node[b];
    int childShift = n.shift - k;
    for (int i = 0; i < b; i++) {
      c[i] = new Node(n.lo + ((long) i << childShift), childShift);
    }
    n.children = c;
    n.childShift = childShift;
    nodes += b;
    maxNodes = Math.max(maxNodes, nodes);
    if (events >= WARMUP_EVENTS) {
      steadyMaxNodes = Math.max(steadyMaxNodes, nodes);
    }
    splits++;
  }

  /** One batch of merges; the next batch waits q times as long as this one did (§3.1). */
  private void mergeBatch() {
    java.util.Arrays.fill(cache, null);
    merge(root, threshold());
    merges++;
    mergeInterval = Math.max(1, (long) Math.ceil(mergeInterval * config.mergeRatio()));
    nextMerge = events + mergeInterval;
  }

  /**
   * Folds, bottom-up, every set of leaf children whose counts together with their parent's stay
   * within the threshold: those ranges no longer deserve separate counters (Fig. 1). Returns
   * whether {@code n} is a leaf afterwards.
   */
  private boolean merge(Node n, double threshold) {
    if (n.children == null) {
      return true;
    }
    boolean allLeaves = true;
    long sum = n.count;
    for (Node c : n.children) {
      allLeaves &= merge(c, threshold);
      sum += c.count;
    }
    if (allLeaves && sum <= threshold) {
      nodes -= n.children.length;
      n.children = null;
      n.count = sum;
      return true;
    }
    return false;
  }

  public Node root() {
    return root;
  }

  public long events() {
    return events;
  }

  /** Nodes now. */
  public int nodes() {
    return nodes;
  }

  /** The most nodes the tree ever held (just before some merge batch, Fig. 7). */
  public int maxNodes() {
    return maxNodes;
  }

  /**
   * The most nodes the tree held from its {@link #WARMUP_EVENTS}th event on: the steady state's
   * peak, without the start-up transient; {@link #maxNodes} for a shorter stream.
   */
  public int steadyMaxNodes() {
    return events >= WARMUP_EVENTS ? steadyMaxNodes : maxNodes;
  }

  /** Nodes averaged over events (the common-case memory of Fig. 7). */
  public double averageNodes() {
    return events == 0 ? nodes : nodeSum / events;
  }

  public long splits() {
    return splits;
  }

  /** Splits that the node capacity refused. */
  public long refusedSplits() {
    return refusedSplits;
  }

  public long mergeBatches() {
    return merges;
  }

  /** Every node in pre-order (a node before its children, children in value order). */
  public List<Node> preorder() {
    List<Node> out = new ArrayList<>();
    collect(root, out);
    return out;
  }

  private static void collect(Node n, List<Node> out) {
    out.add(n);
    if (n.children != null) {
      for (Node c : n.children) {
        collect(c, out);
      }
    }
  }
}
