package org.dise.runtime.profiles.sink;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.dise.runtime.cpu.plan.GuestState;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.NamedSink;
import org.dise.runtime.sink.ParamSpec;
import org.dise.runtime.sink.ProfileTable;

/**
 * A logging watchpoint, the classic DISE utility as a profile (first paper, Section 3.1: DISE
 * "customizes" the instruction stream; debugging is one use): each event is a store, and one that
 * writes any byte of [{@code address}, {@code address + length}) is counted per store pc with the
 * last address and value it wrote. The store still happens.
 */
public final class Watchpoint extends NamedSink {
  /**
   * The catalogue's entry for this sink ({@code watchpoint}): its parameters and what it accepts.
   */
  public static final ComponentSpec SPEC =
      ComponentSpec.instructionSink(
          "watchpoint",
          Set.of("store"),
          "logging store watchpoint",
          ParamSpec.integer("address", Long.MIN_VALUE, Long.MAX_VALUE, "0", "first watched byte"),
          ParamSpec.atLeast("length", 1, "1", "watched bytes"));

  private final long address;
  private final long length;

  /** Per store pc: {writes, last address, last value}. */
  private final Map<Long, long[]> byPc = new TreeMap<>();

  public Watchpoint(String name, long address, long length) {
    super(name);
    this.address = address;
    this.length = length;
  }

  @Override
  public void record(GuestState guest, DecodedInsn d, long[] args, long applicationInstructions) {
    int size =
        switch (d.exec) {
          case SB -> 1;
          case SH -> 2;
          case SW, FSW -> 4;
          case SD, FSD -> 8;
          default -> 0;
        };
    long a = guest.x()[d.rs1] + d.imm;
    // Overlap of [a, a + size) with the watched range, unsigned.
    if (size == 0
        || Long.compareUnsigned(a + size, address) <= 0
        || Long.compareUnsigned(a, address + length) >= 0) {
      return;
    }
    long value =
        switch (d.exec) {
          case FSW, FSD -> guest.f()[d.rs2];
          default -> guest.x()[d.rs2];
        };
    long[] e = byPc.computeIfAbsent(d.pc, k -> new long[3]);
    e[0]++;
    e[1] = a;
    e[2] = size == 8 ? value : value & ((1L << (8 * size)) - 1);
  }

  @Override
  public ProfileTable table(SymbolTable symbols) {
    List<Map.Entry<Long, long[]>> entries = new ArrayList<>(byPc.entrySet());
    entries.sort((x, y) -> Long.compare(y.getValue()[0], x.getValue()[0]));
    List<List<String>> rows = new ArrayList<>();
    for (Map.Entry<Long, long[]> e : entries) {
      long[] v = e.getValue();
      rows.add(
          List.of(
              Branches.hex(e.getKey()),
              RegionCounter.functionAt(symbols, e.getKey()),
              Long.toString(v[0]),
              Branches.hex(v[1]),
              Branches.hex(v[2])));
    }
    return new ProfileTable(
        List.of("pc", "function", "writes", "last_address", "last_value"),
        rows,
        List.of("pc"),
        "writes");
  }
}
