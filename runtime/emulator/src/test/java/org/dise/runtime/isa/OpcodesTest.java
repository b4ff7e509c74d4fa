package org.dise.runtime.isa;

import static com.google.common.truth.Truth.assertWithMessage;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.junit.jupiter.api.Test;

/**
 * The interpreter's int opcodes, generated at build time (runtime/codegen), equal the table's
 * ordinals.
 */
class OpcodesTest {
  @Test
  void everyRowHasItsOrdinalAsAConstant() throws Exception {
    for (Op op : Op.values()) {
      Field f = Opcodes.class.getField(op.name());
      assertWithMessage("Opcodes.%s", op.name()).that(f.getInt(null)).isEqualTo(op.ordinal());
    }
  }

  @Test
  void noConstantWithoutARow() {
    for (Field f : Opcodes.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers())) {
        assertWithMessage("Opcodes.%s names a table row", f.getName())
            .that(java.util.Arrays.stream(Op.values()).anyMatch(o -> o.name().equals(f.getName())))
            .isTrue();
      }
    }
  }
}
