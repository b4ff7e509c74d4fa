package org.dise.codegen;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dise.runtime.isa.Op;
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
  void anUnknownGeneratorIsNamedWithTheOnesThereAre(@TempDir Path dir) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Generate.main(new String[] {dir.toString(), "syscalls"}));
    assertThat(e).hasMessageThat().isEqualTo("no generator named 'syscalls' (names: opcodes)");
    assertThat(dir.toFile().list()).isEmpty();
  }
}
