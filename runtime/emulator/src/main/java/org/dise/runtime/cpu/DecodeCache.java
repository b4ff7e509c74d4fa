package org.dise.runtime.cpu;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Decoder;
import org.dise.runtime.isa.IllegalInstructionException;
import org.dise.runtime.mem.Memory;
import org.dise.runtime.mem.MemoryFault;

/**
 * A hart's decode cache and block cache: pre-decoded instructions with one array per code page, and
 * the blocks built from them by start address. A write to a cached page (self-modifying code) or
 * {@code fence.i} empties the page's entries so they are decoded again, and hands the translated
 * units that held its blocks back to the interpreter ({@link BlockCompiler#retire}).
 */
final class DecodeCache {
  private static final int MAX_BLOCK = 64;

  private final Memory mem;
  private final Cpu cpu;

  private final DecodedInsn[][] codePages = new DecodedInsn[(int) (Memory.LIMIT >>> 12)][];
  private final List<Integer> cachedPages = new ArrayList<>();

  /**
   * Blocks by start address, per page (parallel to codePages); the run loop's chaining reads it
   * directly.
   */
  final Block[][] blockPages = new Block[(int) (Memory.LIMIT >>> 12)][];

  /**
   * Whether the dispatcher keeps its own small table of translated blocks by start address ({@code
   * -Dacf.dispatchLinks}, on by default): see {@link #linkCode}.
   */
  static final boolean LINKS = EmulatorProperties.DISPATCH_LINKS.value();

  /** Slots of the link table (a power of two). */
  static final int LINK_SLOTS = 1 << 12;

  /**
   * The link table, which the run loop reads when one unit hands control to the next: slot {@code
   * (pc >>> 1) & (LINK_SLOTS - 1)} holds a translated block's unit, and {@link #linkKeys} its start
   * address (low 32 bits), length (bits 32-39) and id in the unit (from bit 40). The lookup through
   * {@link #blockPages} walks five dependent loads (the page's array, the block, its unit, its
   * instructions and their count) that miss the cache on a large program (two thirds of the run
   * loop's samples on chess, docs/benchmarks.md, issue 29); these two small arrays stay cached. A
   * slot is a copy of the block's state, so the table is emptied whenever any block's translation
   * changes ({@link #unitsChanged}: a unit installed, a block dropped), and the run loop refills it
   * from {@link #blockPages}.
   */
  final CompiledBlocks[] linkCode = new CompiledBlocks[LINK_SLOTS];

  /** Per slot of {@link #linkCode}: the block's start, length and id, packed. */
  final long[] linkKeys = new long[LINK_SLOTS];

  /**
   * Per slot of {@link #linkCode}: chained entries from one unit into another at the blocks whose
   * start maps to the slot, counted towards joining units at hot edges (only with {@code
   * acf.joinUnits}: {@link BlockCompiler#join}).
   */
  final int[] linkHeat = new int[LINK_SLOTS];

  /** Whether some slot of the link table is filled. */
  private boolean linked;

  /**
   * Puts translated block {@code b} into the link table (when on, and when it fits the packing: a
   * start below 4 GiB, which the run loop checks first, a length below 256, an id below 2^23).
   */
  void link(Block b) {
    if (!LINKS || b.insns.length > 0xff || b.codeId >= 1 << 23) {
      return;
    }
    int slot = ((int) b.start >>> 1) & (LINK_SLOTS - 1);
    linkKeys[slot] = (b.start & 0xffff_ffffL) | (long) b.insns.length << 32 | (long) b.codeId << 40;
    linkCode[slot] = b.code;
    linked = true;
  }

  /** Empties the link table: a block's translation changed (installed, retired, dropped). */
  void unitsChanged() {
    if (linked) {
      Arrays.fill(linkCode, null);
      linked = false;
    }
  }

  /** Static instructions decoded into the cache (re-decodes included); read by Cpu#counters. */
  long decodedCount;

  DecodeCache(Memory mem, Cpu cpu) {
    this.mem = mem;
    this.cpu = cpu;
  }

  /** The decoded instruction at {@code addr}, decoding it on first use. */
  DecodedInsn decodedAt(long addr) {
    DecodedInsn[] page = codePage(addr);
    DecodedInsn d = page[(int) (addr & Memory.PAGE_MASK) >>> 1];
    return d != null ? d : decodeInto(page, addr);
  }

  private DecodedInsn[] codePage(long addr) {
    if (addr < 0 || addr >= Memory.LIMIT) {
      throw new MemoryFault(addr, MemoryFault.Access.EXECUTE, false);
    }
    int p = (int) (addr >>> Memory.PAGE_BITS);
    DecodedInsn[] page = codePages[p];
    if (page == null) {
      page = new DecodedInsn[Memory.PAGE_SIZE / 2];
      codePages[p] = page;
      cachedPages.add(p);
    }
    return page;
  }

  private DecodedInsn decodeInto(DecodedInsn[] page, long addr) {
    if ((addr & 1) != 0) {
      throw new MemoryFault(addr, MemoryFault.Access.EXECUTE, true);
    }
    int lo = mem.fetch16(addr);
    int raw = lo;
    if (Decoder.isLong(lo)) {
      raw = lo | (mem.fetch16(addr + 2) << 16);
      mem.markCode(addr + 2);
    }
    mem.markCode(addr);
    DecodedInsn d = Decoder.decode(addr, raw);
    DecodeStage stage = cpu.decodeStage();
    if (stage != null) {
      d.dise = stage.attach(d);
    }
    page[(int) (addr & Memory.PAGE_MASK) >>> 1] = d;
    decodedCount++;
    return d;
  }

  /** The block starting at {@code pc}, built on first use. */
  Block blockAt(long pc) {
    if (pc >= 0 && pc < Memory.LIMIT) {
      Block[] bp = blockPages[(int) (pc >>> Memory.PAGE_BITS)];
      if (bp != null) {
        Block b = bp[(int) (pc & Memory.PAGE_MASK) >>> 1];
        if (b != null) {
          return b;
        }
      }
    }
    return buildBlock(pc);
  }

  private Block buildBlock(long pc) {
    DecodedInsn first = decodedAt(pc); // faults here belong to the guest
    List<DecodedInsn> list = new ArrayList<>();
    list.add(first);
    long pageEnd = (pc & ~Memory.PAGE_MASK) + Memory.PAGE_SIZE;
    DecodedInsn last = first;
    // Tagged instructions stay inside blocks: they take the hook only while the flag vector
    // lets one of their productions match (see Block.tagMask).
    while (!endsBlock(last) && last.npc < pageEnd && list.size() < MAX_BLOCK) {
      DecodedInsn next;
      try {
        next = decodedAt(last.npc);
      } catch (MemoryFault | IllegalInstructionException e) {
        break; // the fault belongs to whoever reaches that address
      }
      last = next;
      list.add(last);
    }
    Block b = new Block(list.toArray(new DecodedInsn[0]));
    int tagged = 0;
    for (DecodedInsn d : b.insns) {
      if (d.dise != null) {
        b.tagMask |= d.diseMask;
        tagged++;
      }
    }
    if (tagged > 0) {
      b.tagAt = new int[tagged];
      b.tagMasks = new long[tagged];
      for (int k = 0, t = 0; k < b.insns.length; k++) {
        if (b.insns[k].dise != null) {
          b.tagAt[t] = k;
          b.tagMasks[t++] = b.insns[k].diseMask;
        }
      }
    }
    int p = (int) (pc >>> Memory.PAGE_BITS);
    if (blockPages[p] == null) {
      blockPages[p] = new Block[Memory.PAGE_SIZE / 2];
    }
    blockPages[p][(int) (pc & Memory.PAGE_MASK) >>> 1] = b;
    return b;
  }

  private static boolean endsBlock(DecodedInsn d) {
    return switch (d.exec) {
      case JAL, JALR, BEQ, BNE, BLT, BGE, BLTU, BGEU, ECALL, EBREAK, FENCE_I -> true;
      default -> false;
    };
  }

  /** The block the cache holds at {@code pc}, or null (never builds one). */
  Block cachedBlock(long pc) {
    if (pc < 0 || pc >= Memory.LIMIT) {
      return null;
    }
    Block[] bp = blockPages[(int) (pc >>> Memory.PAGE_BITS)];
    return bp == null ? null : bp[(int) (pc & Memory.PAGE_MASK) >>> 1];
  }

  /** True while {@code b} is the block the cache holds for its address. */
  boolean isCurrent(Block b) {
    Block[] bp = blockPages[(int) (b.start >>> Memory.PAGE_BITS)];
    return bp != null && bp[(int) (b.start & Memory.PAGE_MASK) >>> 1] == b;
  }

  /** Forgets a page's blocks; translated units holding one of them are marked out of date. */
  private void dropBlocks(int p) {
    Block[] blocks = blockPages[p];
    if (blocks == null) {
      return;
    }
    unitsChanged();
    for (Block b : blocks) {
      if (b != null && b.code != null) {
        BlockCompiler.retire(b);
      }
    }
    Arrays.fill(blocks, null);
  }

  /** Drops the decoded instructions of one page (its code was written or unmapped). */
  void invalidatePage(int p) {
    DecodedInsn[] page = codePages[p];
    if (page != null) {
      Arrays.fill(page, null);
    }
    // Blocks of this page, and of the previous one (its last may extend into this page).
    dropBlocks(p);
    if (p > 0) {
      dropBlocks(p - 1);
    }
    // An instruction that starts on the previous page may extend into this one.
    if (p > 0 && codePages[p - 1] != null) {
      DecodedInsn[] prev = codePages[p - 1];
      prev[prev.length - 1] = null;
    }
  }

  /** fence.i: forget every decoded instruction. */
  void flush() {
    for (int p : cachedPages) {
      Arrays.fill(codePages[p], null);
      dropBlocks(p);
      mem.unmarkCode(p);
    }
  }

  /** Every block the cache holds. */
  void forEachBlock(Consumer<Block> action) {
    for (int p : cachedPages) {
      Block[] blocks = blockPages[p];
      if (blocks != null) {
        for (Block b : blocks) {
          if (b != null) {
            action.accept(b);
          }
        }
      }
    }
  }

  /** Every cached page's decoded instructions (for the DISE engine to attach its data). */
  void forEachDecoded(Consumer<DecodedInsn> action) {
    for (int p : cachedPages) {
      for (DecodedInsn d : codePages[p]) {
        if (d != null) {
          action.accept(d);
        }
      }
    }
  }
}
