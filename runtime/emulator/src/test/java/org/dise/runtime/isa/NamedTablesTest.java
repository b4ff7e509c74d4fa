package org.dise.runtime.isa;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The tables of CSRs, rounding modes and pseudo-instructions, and their readers. */
class NamedTablesTest {
  @Test
  void csrNumbersAndNamesAreUniqueAndTheDisassemblerNamesEach() {
    Set<Integer> numbers = new HashSet<>();
    Set<String> names = new HashSet<>();
    for (Csr c : Csr.values()) {
      assertThat(numbers.add(c.number())).isTrue();
      assertThat(names.add(c.asmName())).isTrue();
      assertThat(Csr.byName(c.asmName().toUpperCase())).hasValue(c);
      assertThat(Csr.byNumber(c.number())).hasValue(c);
      // csrrs a0, <csr>, x0
      int raw = (c.number() << 20) | (2 << 12) | (10 << 7) | 0x73;
      assertThat(Disassembler.format(Decoder.decode(0x1000, raw), null))
          .isEqualTo(c.readPseudo() + "\ta0");
      // Every alias the disassembler prints is a pseudo-instruction the compiler accepts.
      for (String alias : new String[] {c.readPseudo(), c.writePseudo(), c.writeImmPseudo()}) {
        if (alias != null) {
          PseudoInstruction p = PseudoInstruction.byMnemonic(alias).orElseThrow();
          assertThat(p.baseOperands()).contains(c.asmName());
        }
      }
    }
    assertThat(Csr.byNumber(0x300)).isEmpty(); // mstatus: not a user-mode CSR here
    // The counters are read-only (a write is an illegal instruction); the F/D status is not.
    assertThat(Csr.CYCLE.writable()).isFalse();
    assertThat(Csr.FCSR.writable()).isTrue();
  }

  @Test
  void roundingModesByEncodingAndName() {
    assertThat(RoundingMode.names())
        .containsExactly("rne", "rtz", "rdn", "rup", "rmm", "dyn")
        .inOrder();
    assertThat(RoundingMode.byName("RTZ").map(RoundingMode::encoding)).hasValue(1);
    assertThat(RoundingMode.byName("rm5")).isEmpty();
    assertThat(RoundingMode.display(7)).isEqualTo("dyn");
    assertThat(RoundingMode.display(5)).isEqualTo("rm5");
    // fadd.s fa0, fa1, fa2, rtz
    int raw = 0x00000053 | (10 << 7) | (1 << 12) | (11 << 15) | (12 << 20);
    assertThat(Disassembler.format(Decoder.decode(0x1000, raw), null))
        .isEqualTo("fadd.s\tfa0,fa1,fa2,rtz");
  }

  @Test
  void everyPseudoInstructionExpandsToABaseInstructionWithItsOperandCount() {
    Set<String> seen = new HashSet<>();
    for (PseudoInstruction p : PseudoInstruction.ALL) {
      assertWithMessage("duplicate %s", p.mnemonic()).that(seen.add(p.mnemonic())).isTrue();
      assertWithMessage("%s is a real mnemonic", p.mnemonic())
          .that(Isa.byMnemonic(p.mnemonic()))
          .isEmpty();
      if (p.expansion() == null) {
        assertThat(p.mnemonic()).isEqualTo("li");
        continue;
      }
      Op base = Isa.byMnemonic(p.baseMnemonic()).orElse(null);
      assertWithMessage("%s expands to %s", p.mnemonic(), p.baseMnemonic()).that(base).isNotNull();
      assertWithMessage("%s: operands of %s", p.mnemonic(), base.mnemonic())
          .that(p.baseOperands().size())
          .isEqualTo(base.operands().size() - (base.operands().contains(Operand.RM) ? 1 : 0));
      int arity = p.operands().isEmpty() ? 0 : p.operands().split(",").length;
      for (String t : p.baseOperands()) {
        for (String ref : t.split("[()]")) {
          if (ref.startsWith("$")) {
            assertWithMessage("%s: %s", p.mnemonic(), t)
                .that(Integer.parseInt(ref.substring(1)))
                .isLessThan(arity);
          } else if (!ref.isEmpty() && !ref.matches("x\\d+|-?\\d+")) {
            assertWithMessage("%s names CSR %s", p.mnemonic(), ref)
                .that(Csr.byName(ref))
                .isPresent();
          }
        }
      }
    }
  }

  @Test
  void theDisassemblersPseudoInstructionsAreInTheTable() {
    // Encodings objdump shows as pseudo-instructions, and the mnemonic it uses.
    List<int[]> cases =
        List.of(
            new int[] {0x00000013}, // nop
            new int[] {0x00500513}, // li a0,5
            new int[] {0x00058513}, // mv a0,a1
            new int[] {0xfff5c513}, // not a0,a1
            new int[] {0x40b00533}, // neg a0,a1
            new int[] {0x0005851b}, // sext.w a0,a1
            new int[] {0x0015b513}, // seqz a0,a1
            new int[] {0x00b03533}, // snez a0,a1
            new int[] {0x00008067}, // ret
            new int[] {0x00058067}); // jr a1
    for (int[] c : cases) {
      String text = Disassembler.format(Decoder.decode(0x1000, c[0]), null);
      String mnemonic = text.split("\t")[0];
      assertWithMessage("%s", text).that(PseudoInstruction.byMnemonic(mnemonic)).isPresent();
    }
  }
}
