package org.dise.codegen;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.SemanticsTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the build's generator writes, and how it refuses a name it does not know. */
class GenerateTest {
  @Test
  void opcodesHoldEveryRowsOrdinalAsAConstantInTableOrder(@TempDir Path dir) throws Exception {
    Generate.main(new String[] {dir.toString(), "opcodes"});
    String src = Files.readString(dir.resolve("org/dise/runtime/isa/Opcodes.java"));
    assertThat(src).startsWith("package org.dise.runtime.isa;\n");
    assertThat(src).contains("public final class Opcodes {");
    assertThat(src).contains("private Opcodes() {");
    int last = -1;
    for (Op op : Op.values()) {
      String line = "public static final int " + op.name() + " = " + op.ordinal() + ";";
      int at = src.indexOf(line);
      assertThat(at).isGreaterThan(last);
      last = at;
    }
  }

  @Test
  void theDispatchHasOneCasePerInstructionWithAMethodAndHandsBackTheRest(@TempDir Path dir)
      throws Exception {
    Generate.main(new String[] {dir.toString(), "dispatch"});
    String src = Files.readString(dir.resolve("org/dise/runtime/cpu/Dispatch.java"));
    assertThat(src).startsWith("package org.dise.runtime.cpu;\n");
    for (SemanticsTable.Entry e : SemanticsTable.all()) {
      String label = "case Opcodes." + e.op().name() + ":";
      switch (e.kind()) {
        case CSR, SYSTEM -> assertThat(src).doesNotContain(label);
        case ATOMIC -> assertThat(src).containsMatch(label + "\\s+x\\[d.rd\\] = in.atomic\\(");
        default -> assertThat(src).contains("Semantics." + e.method() + "(");
      }
    }
    // Operands as the table lists them: a rounding FP operation, a load, a jump.
    assertThat(src).contains("f[d.rd] = Semantics.fadd_d(u, f[d.rs1], f[d.rs2], in.rm(d));");
    assertThat(src).contains("x[d.rd] = Semantics.lbu(mem, x[d.rs1] + d.imm);");
    // fsw stores the bits as sw does (SemanticsTable.sameAs), from the f register.
    assertThat(src).contains("Semantics.sw(mem, x[d.rs1] + d.imm, f[d.rs2]);");
    assertThat(src).contains("long t = Semantics.jalr(x[d.rs1], d.imm);");
    assertThat(src).contains("return Semantics.amoadd_d(old, src);");
  }

  @Test
  void anUnknownGeneratorIsNamedWithTheOnesThereAre(@TempDir Path dir) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Generate.main(new String[] {dir.toString(), "syscalls"}));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo("no generator named 'syscalls' (names: opcodes, dispatch)");
    assertThat(dir.toFile().list()).isEmpty();
  }
}
