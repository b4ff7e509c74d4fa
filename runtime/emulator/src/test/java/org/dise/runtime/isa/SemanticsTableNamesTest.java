package org.dise.runtime.isa;

import static com.google.common.truth.Truth.assertWithMessage;

import org.junit.jupiter.api.Test;

/** The immediate form's register form, found without a regular expression on the start-up path. */
class SemanticsTableNamesTest {
  @Test
  void theImmediateIIsDroppedAsTheRegularExpressionDid() {
    for (Op op : Op.values()) {
      String m = op.mnemonic();
      assertWithMessage(m)
          .that(SemanticsTable.withoutImmediateI(m))
          .isEqualTo(m.replaceFirst("i(u?w?)$", "$1"));
    }
    for (String m : new String[] {"", "i", "iw", "iuw", "addi", "sltiu", "addiw", "xuw", "ui"}) {
      assertWithMessage(m)
          .that(SemanticsTable.withoutImmediateI(m))
          .isEqualTo(m.replaceFirst("i(u?w?)$", "$1"));
    }
  }
}
