package org.dise.runtime.cpu;

import org.dise.runtime.isa.DecodedInsn;

/**
 * A straight-line run of decoded instructions on one page that ends at a control transfer (or an
 * instruction the interpreter must see alone, or the page end). The interpreter executes a block
 * without looking up each instruction, and counts its instructions once.
 */
final class Block {
  final long start;

  /** Address just past the last instruction. */
  final long end;

  final DecodedInsn[] insns;

  /** Times the interpreter ran this block (it is translated when this reaches a threshold). */
  int count;

  /**
   * The flag vectors under which some instruction of the block is tagged by the decode stage (the
   * union of their {@code diseMask}s; 0 when none is tagged). Under any other vector the block runs
   * like untagged code, translated or not.
   */
  long tagMask;

  /** The positions of the tagged instructions and their masks (null when none is tagged). */
  int[] tagAt;

  long[] tagMasks;

  /** The translated code, installed by the emulating thread. */
  CompiledBlocks code;

  int codeId;

  /**
   * The blocks translated into the same unit as this one (set with {@link #code}), so that when one
   * of them is dropped the others leave the out-of-date unit too ({@link BlockCompiler#retire}).
   */
  Block[] unit;

  /**
   * True once a join of another unit with this block's unit at this block ({@link
   * BlockCompiler#join}, {@code acf.joinUnits}) was refused for good: it would pass the limits.
   */
  boolean joinRefused;

  /**
   * With {@code acf.exitStats}: the region former's connected part and piece (of at most {@code
   * MAX_UNIT} blocks) that took this block in, and for each of its {@link Region#successors} why it
   * was left out of that part ({@link ExitCauses}; 0: taken in). Null when not formed by {@link
   * Region#form}. Read only to explain direct-edge unit exits.
   */
  int formedPart;

  int formedPiece;

  byte[] leftOut;

  /**
   * True while a translator thread generates a unit holding this block ({@link
   * BlockCompiler#translateThread}): no other region takes it in meanwhile. Read and written by the
   * emulating thread only.
   */
  boolean inFlight;

  /** Joins this block took part in ({@link BlockCompiler#MAX_JOINS} bounds re-translation). */
  int joins;

  /** True when the last instruction is a branch or jump (a block observer's event). */
  final boolean transferEnd;

  Block(DecodedInsn[] insns) {
    this.insns = insns;
    this.start = insns[0].pc;
    this.end = insns[insns.length - 1].npc;
    this.transferEnd = isTransfer(insns[insns.length - 1]);
  }

  /** Whether the block's branch or jump goes back to its own start: a unit's tightest loop. */
  boolean loopsToItself() {
    return insns[insns.length - 1].target() == start;
  }

  static boolean isTransfer(DecodedInsn d) {
    return switch (d.exec) {
      case JAL, JALR, BEQ, BNE, BLT, BGE, BLTU, BGEU -> true;
      default -> false;
    };
  }
}
