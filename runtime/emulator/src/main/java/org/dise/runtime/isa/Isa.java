package org.dise.runtime.isa;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Lookups over the instruction table {@link Op}: mnemonic to row, and match/mask buckets for
 * decoding. Rows whose encodings overlap must be declared in {@link #DECLARED_OVERLAPS}; within a
 * bucket the row with more fixed bits is tried first, so the declared special case wins.
 */
public final class Isa {
  private Isa() {}

  /**
   * Pairs of rows that match some common encoding on purpose: the first (more specific) one wins.
   */
  public static final Set<List<Op>> DECLARED_OVERLAPS =
      Set.of(
          List.of(Op.C_NOP, Op.C_ADDI),
          List.of(Op.C_ADDI16SP, Op.C_LUI),
          List.of(Op.C_JR, Op.C_MV),
          List.of(Op.C_EBREAK, Op.C_JALR),
          List.of(Op.C_EBREAK, Op.C_ADD),
          List.of(Op.C_JALR, Op.C_ADD));

  private static final Map<String, Op> BY_MNEMONIC = new HashMap<>();

  /** 32-bit rows by major opcode (bits 6:0). */
  private static final Op[][] BUCKETS32 = new Op[128][];

  /** 16-bit rows by quadrant and funct3: ((raw & 3) << 3) | (raw >>> 13 & 7). */
  private static final Op[][] BUCKETS16 = new Op[32][];

  static {
    List<List<Op>> b32 = new ArrayList<>();
    List<List<Op>> b16 = new ArrayList<>();
    for (int i = 0; i < 128; i++) {
      b32.add(new ArrayList<>());
    }
    for (int i = 0; i < 32; i++) {
      b16.add(new ArrayList<>());
    }
    for (Op op : Op.values()) {
      BY_MNEMONIC.put(op.mnemonic(), op);
      if (op.compressed()) {
        b16.get(bucket16(op.match())).add(op);
      } else {
        b32.get(op.match() & 0x7f).add(op);
      }
    }
    // A lambda of this class, not Comparator.comparingInt(..).reversed(): JDK 17's archive keeps
    // the application's lambdas but spins java.util.Comparator's at run time (ASM loaded, about
    // 3 ms of every fresh run: docs/benchmarks.md, start-up, third pass).
    Comparator<Op> specificFirst =
        (a, b) -> Integer.compare(Integer.bitCount(b.mask()), Integer.bitCount(a.mask()));
    for (int i = 0; i < 128; i++) {
      b32.get(i).sort(specificFirst);
      BUCKETS32[i] = b32.get(i).toArray(new Op[0]);
    }
    for (int i = 0; i < 32; i++) {
      b16.get(i).sort(specificFirst);
      BUCKETS16[i] = b16.get(i).toArray(new Op[0]);
    }
  }

  static int bucket16(int raw) {
    return ((raw & 3) << 3) | ((raw >>> 13) & 7);
  }

  /** The row for a mnemonic such as {@code "addi"} or {@code "c.lw"}, case-insensitive. */
  public static Optional<Op> byMnemonic(String mnemonic) {
    return Optional.ofNullable(BY_MNEMONIC.get(mnemonic.toLowerCase(Locale.ROOT)));
  }

  public static List<Op> all() {
    return Collections.unmodifiableList(Arrays.asList(Op.values()));
  }

  /** The row matching a 32-bit instruction word, or null. */
  public static Op lookup32(int raw) {
    for (Op op : BUCKETS32[raw & 0x7f]) {
      if ((raw & op.mask()) == op.match()) {
        return op;
      }
    }
    return null;
  }

  /** The row matching a 16-bit compressed instruction, or null. */
  public static Op lookup16(int raw) {
    for (Op op : BUCKETS16[bucket16(raw)]) {
      if ((raw & op.mask()) == op.match()) {
        return op;
      }
    }
    return null;
  }

  /** True when some instruction word matches both rows. */
  public static boolean overlap(Op a, Op b) {
    if (a.compressed() != b.compressed()) {
      return false;
    }
    int common = a.mask() & b.mask();
    return ((a.match() ^ b.match()) & common) == 0;
  }
}
