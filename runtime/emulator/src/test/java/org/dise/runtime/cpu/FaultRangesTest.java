package org.dise.runtime.cpu;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.util.ArrayList;
import java.util.List;
import org.dise.runtime.mem.Memory;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The exception ranges of a unit's fault handler ({@link FaultRanges}, {@code acf.faultRanges}): by
 * default one around each call or {@code athrow} that can throw a guest fault, none around the
 * memory fast path; with {@code unit}, one range over the whole unit.
 */
class FaultRangesTest {
  private static final long A = 0x10000;

  /** ld a1,8(a2); fadd.d fa0,fa1,fa2 (dynamic rounding); amoadd.w a0,a1,(a2); j . */
  private static Block block() {
    Memory mem = new Memory();
    mem.map(A, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_EXEC);
    UnitChainTest.put(mem, A, 0x00863583, 0x02c5f553, 0x00b6252f, 0x0000006f);
    return new Cpu(mem, c -> {}).blockAt(A);
  }

  /** The run method's instructions (as "OWNER.name" for calls), and its handlers' ranges. */
  private static final class Listing {
    final List<Object> events = new ArrayList<>(); // a Label, or an instruction's text
    final List<Label[]> ranges = new ArrayList<>(); // start, end of RuntimeException handlers

    /** The instructions between a range's labels. */
    List<String> inside(Label[] range) {
      List<String> out = new ArrayList<>();
      boolean in = false;
      for (Object e : events) {
        if (e == range[0]) {
          in = true;
        } else if (e == range[1]) {
          break;
        } else if (in && e instanceof String s) {
          out.add(s);
        }
      }
      return out;
    }
  }

  private static Listing listing(boolean atCalls) throws Exception {
    boolean was = BytecodeTranslator.faultRangesAtCalls;
    BytecodeTranslator.faultRangesAtCalls = atCalls;
    byte[] unit;
    try {
      unit = BytecodeTranslator.classBytes(List.of(block()), false);
    } finally {
      BytecodeTranslator.faultRangesAtCalls = was;
    }
    Listing l = new Listing();
    UnitChainTest.visitRun(
        unit,
        new MethodVisitor(Opcodes.ASM9) {
          @Override
          public void visitTryCatchBlock(Label start, Label end, Label h, String type) {
            l.ranges.add(new Label[] {start, end});
          }

          @Override
          public void visitLabel(Label label) {
            l.events.add(label);
          }

          @Override
          public void visitMethodInsn(int op, String owner, String method, String d, boolean itf) {
            l.events.add(owner + "." + method);
          }

          @Override
          public void visitInsn(int opcode) {
            l.events.add(opcode == Opcodes.ATHROW ? "athrow" : "insn " + opcode);
          }

          @Override
          public void visitVarInsn(int opcode, int var) {
            l.events.add("var " + opcode);
          }
        });
    return l;
  }

  @Test
  void theHandlerCoversEachCallThatCanFaultAndNothingElse() throws Exception {
    Listing l = listing(true);
    List<String> covered = new ArrayList<>();
    for (Label[] range : l.ranges) {
      List<String> in = l.inside(range);
      assertWithMessage("one instruction a range: %s", in).that(in).hasSize(1);
      covered.add(in.get(0));
    }
    // The dynamic rounding mode (which may be illegal) and the atomic (whose access may fault);
    // not the load's fast path, which leaves the unit rather than calling, nor Unsafe's accessors.
    assertThat(covered).contains("org/dise/runtime/cpu/UnitContext.atomic");
    assertThat(covered).contains("org/dise/runtime/cpu/UnitContext.dynamicRm");
    for (String insn : covered) {
      assertThat(insn).doesNotContain("Unsafe");
      assertThat(insn).doesNotContain("Memory.get");
    }
  }

  @Test
  void withUnitRangesOneRangeCoversTheWholeUnit() throws Exception {
    Listing l = listing(false);
    assertThat(l.ranges).hasSize(1);
    assertThat(l.inside(l.ranges.get(0)).size()).isGreaterThan(50);
  }
}
