package org.dise.runtime.dise;

import static org.objectweb.asm.Opcodes.*;

import org.dise.runtime.cpu.PrologueEmitter;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.sink.SiteCounter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Type;

/**
 * A prologue's {@code call(sink, ...)} as bytecode when the sink counts the instruction's events in
 * one {@link SiteCounter}: the engine's accounts for the call as for any other, and between them
 * the counter's additions on the counter itself, a constant of the unit (no call into the sink, no
 * hash, no register stored for it). spec/emulator.md, "Per-site counters".
 */
final class SiteCall {
  private SiteCall() {}

  private static final String ENGINE = InlinePrologue.ENGINE;
  private static final String SITE = Type.getInternalName(SiteCounter.class);
  private static final String MARK = Type.getInternalName(SiteCounter.Mark.class);

  /**
   * Emits call {@code sink} of {@code d}'s prologue, whose events go to {@code site}: what {@link
   * InlinePrologue} emits for a call (the handler's call counted, then the record, then the
   * handler's cost), with the record as the counter's additions.
   */
  static void emit(
      PrologueEmitter.Unit u, DiseEngine engine, DecodedInsn d, int sink, SiteCounter site) {
    MethodVisitor mv = u.mv();
    engine.siteCallEmitted();
    if (site.since != null) {
      // instructions += now - since.at; since.at = now (now: retired so far, this one included).
      u.loadConstant(site.since, "L" + MARK + ";");
      callStart(u, engine);
      mv.visitInsn(LCONST_1);
      mv.visitInsn(LADD);
      mv.visitInsn(DUP2);
      u.loadConstant(site.since, "L" + MARK + ";");
      mv.visitFieldInsn(GETFIELD, MARK, "at", "J");
      mv.visitInsn(LSUB);
      u.loadConstant(site, "L" + SITE + ";");
      mv.visitInsn(DUP_X2);
      mv.visitFieldInsn(GETFIELD, SITE, "instructions", "J");
      mv.visitInsn(LADD);
      mv.visitFieldInsn(PUTFIELD, SITE, "instructions", "J");
      mv.visitFieldInsn(PUTFIELD, MARK, "at", "J");
      increment(u, site);
    } else {
      callStart(u, engine);
      mv.visitInsn(POP2); // the instruction count: only intervals read it
      Label skip = new Label();
      if (site.whenTaken) {
        notTaken(u, d, skip);
      }
      increment(u, site);
      mv.visitLabel(skip);
    }
    u.loadConstant(engine, "L" + ENGINE + ";");
    u.pushInt(sink);
    mv.visitMethodInsn(INVOKEVIRTUAL, ENGINE, "called", "(I)V", false);
  }

  /** The engine's count of handler calls; pushes the application instructions retired so far. */
  private static void callStart(PrologueEmitter.Unit u, DiseEngine engine) {
    u.loadConstant(engine, "L" + ENGINE + ";");
    u.mv().visitMethodInsn(INVOKEVIRTUAL, ENGINE, "callStart", "()J", false);
  }

  /** {@code site.events++}. */
  private static void increment(PrologueEmitter.Unit u, SiteCounter site) {
    MethodVisitor mv = u.mv();
    u.loadConstant(site, "L" + SITE + ";");
    mv.visitInsn(DUP);
    mv.visitFieldInsn(GETFIELD, SITE, "events", "J");
    mv.visitInsn(LCONST_1);
    mv.visitInsn(LADD);
    mv.visitFieldInsn(PUTFIELD, SITE, "events", "J");
  }

  /**
   * Jumps to {@code skip} unless conditional branch {@code d} is taken, comparing its operands as
   * the unit holds them before it executes.
   */
  private static void notTaken(PrologueEmitter.Unit u, DecodedInsn d, Label skip) {
    MethodVisitor mv = u.mv();
    u.loadX(d.rs1);
    u.loadX(d.rs2);
    switch (d.exec) {
      case BEQ, BNE, BLT, BGE -> mv.visitInsn(LCMP);
      case BLTU, BGEU ->
          mv.visitMethodInsn(INVOKESTATIC, "java/lang/Long", "compareUnsigned", "(JJ)I", false);
      default -> throw new IllegalArgumentException("not a conditional branch: " + d);
    }
    int jump =
        switch (d.exec) {
          case BEQ -> IFNE;
          case BNE -> IFEQ;
          case BLT, BLTU -> IFGE;
          default -> IFLT; // BGE, BGEU
        };
    mv.visitJumpInsn(jump, skip);
  }
}
