package org.dise.runtime.isa;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Consistency of the instruction table {@link Op}: the checks Spike's opcode table gets. */
class IsaTableTest {
  /**
   * Rows whose match word alone (every operand field zero) is a reserved encoding, each with a
   * legal encoding of the same row to decode instead.
   */
  private static final Map<Op, Integer> RESERVED_AT_MATCH =
      Map.of(
          Op.C_ADDI4SPN, 0x0040, // nzuimm = 0 is reserved: c.addi4spn s0,sp,4
          Op.C_ADDIW, 0x2085, // rd = x0 is reserved: c.addiw ra,1
          Op.C_ADDI16SP, 0x6141, // nzimm = 0 is reserved: c.addi16sp sp,16
          Op.C_LUI, 0x6085, // nzimm = 0 is reserved: c.lui ra,0x1
          Op.C_LWSP, 0x4082, // rd = x0 is reserved: c.lwsp ra,0(sp)
          Op.C_LDSP, 0x6082, // rd = x0 is reserved: c.ldsp ra,0(sp)
          Op.C_JR, 0x8082); // rs1 = x0 is reserved: c.jr ra (ret)

  /** Rows whose match word is claimed by the declared, more specific row of an overlap. */
  private static final Map<Op, Integer> SHADOWED_AT_MATCH =
      Map.of(
          Op.C_ADDI, 0x0085, // match is c.nop: c.addi ra,1
          Op.C_MV, 0x8086, // match is c.jr x0 (reserved): c.mv ra,ra
          Op.C_JALR, 0x9082, // match is c.ebreak: c.jalr ra
          Op.C_ADD, 0x9086); // match is c.ebreak: c.add ra,ra

  @Test
  void everyOverlapIsDeclaredAndEveryDeclarationOverlaps() {
    List<String> undeclared = new ArrayList<>();
    Op[] ops = Op.values();
    for (int i = 0; i < ops.length; i++) {
      for (int j = i + 1; j < ops.length; j++) {
        Op a = ops[i];
        Op b = ops[j];
        if (Isa.overlap(a, b)
            && !Isa.DECLARED_OVERLAPS.contains(List.of(a, b))
            && !Isa.DECLARED_OVERLAPS.contains(List.of(b, a))) {
          undeclared.add(a.mnemonic() + " / " + b.mnemonic());
        }
      }
    }
    assertWithMessage("overlapping rows not in Isa.DECLARED_OVERLAPS").that(undeclared).isEmpty();
    for (List<Op> pair : Isa.DECLARED_OVERLAPS) {
      assertWithMessage("declared overlap %s does not overlap", pair)
          .that(Isa.overlap(pair.get(0), pair.get(1)))
          .isTrue();
    }
  }

  @Test
  void declaredWinnerIsDecodedWhereBothRowsMatch() {
    for (List<Op> pair : Isa.DECLARED_OVERLAPS) {
      Op winner = pair.get(0);
      Op loser = pair.get(1);
      assertWithMessage("%s must have more fixed bits than %s", winner, loser)
          .that(Integer.bitCount(winner.mask()))
          .isGreaterThan(Integer.bitCount(loser.mask()));
      // Every encoding both rows accept (all 2^16 for compressed rows; for 32-bit rows the
      // combined match with each free bit toggled) must never decode as the loser, and at
      // least one must decode as the winner (others may go to a third, declared row).
      List<Integer> both = new ArrayList<>();
      if (winner.compressed()) {
        for (int w = 0; w < 0x10000; w++) {
          if (winner.matches(w) && loser.matches(w)) {
            both.add(w);
          }
        }
      } else {
        int base = winner.match() | loser.match();
        both.add(base);
        for (int bit = 0; bit < 32; bit++) {
          int w = base ^ (1 << bit);
          if (winner.matches(w) && loser.matches(w)) {
            both.add(w);
          }
        }
      }
      assertThat(both).isNotEmpty();
      int wins = 0;
      for (int w : both) {
        Op found = winner.compressed() ? Isa.lookup16(w) : Isa.lookup32(w);
        assertWithMessage(
                "lookup of 0x%s (matches %s and %s)",
                Integer.toHexString(w), winner.mnemonic(), loser.mnemonic())
            .that(found)
            .isNotEqualTo(loser);
        if (found == winner) {
          wins++;
        } else {
          assertWithMessage(
                  "0x%s decodes as %s, which must be declared over %s",
                  Integer.toHexString(w), found, winner)
              .that(Isa.DECLARED_OVERLAPS)
              .contains(List.of(found, winner));
        }
      }
      assertWithMessage("%s never wins over %s", winner, loser).that(wins).isGreaterThan(0);
    }
  }

  @Test
  void mnemonicsAreUnique() {
    Set<String> seen = new HashSet<>();
    for (Op op : Op.values()) {
      assertWithMessage("duplicate mnemonic").that(seen.add(op.mnemonic())).isTrue();
      assertThat(Isa.byMnemonic(op.mnemonic().toUpperCase())).hasValue(op);
    }
  }

  @Test
  void matchHasNoBitsOutsideMask() {
    for (Op op : Op.values()) {
      assertWithMessage(
              "%s: match 0x%s has bits outside mask 0x%s",
              op, Integer.toHexString(op.match()), Integer.toHexString(op.mask()))
          .that(op.match() & ~op.mask())
          .isEqualTo(0);
      if (op.compressed()) {
        assertWithMessage("%s: compressed row with bits above 15", op)
            .that(op.mask() >>> 16)
            .isEqualTo(0);
        assertWithMessage("%s: compressed row in quadrant 3", op)
            .that(op.match() & 3)
            .isNotEqualTo(3);
      } else {
        assertWithMessage("%s: 32-bit row must fix bits 1:0 = 11", op)
            .that(op.mask() & op.match() & 3)
            .isEqualTo(3);
      }
    }
  }

  @Test
  void compressedRowsExpandToABaseRowOfTheSameClass() {
    for (Op op : Op.values()) {
      if (op.compressed()) {
        Op base = op.base();
        assertWithMessage("%s expands to itself", op).that(base).isNotEqualTo(op);
        assertWithMessage("%s expands to compressed %s", op, base)
            .that(base.compressed())
            .isFalse();
        assertWithMessage("%s class vs its base %s", op, base)
            .that(op.opClass())
            .isEqualTo(base.opClass());
        assertThat(op.extension()).isEqualTo(Extension.C);
        assertThat(op.size()).isEqualTo(2);
      } else {
        assertThat(op.base()).isEqualTo(op);
        assertThat(op.size()).isEqualTo(4);
      }
    }
  }

  @Test
  void decodingEachMatchWordGivesItsRow() {
    for (Op op : Op.values()) {
      int word = op.match();
      if (RESERVED_AT_MATCH.containsKey(op)) {
        IllegalInstructionException e =
            assertThrows(
                IllegalInstructionException.class,
                () -> Decoder.decode(0x1000, word),
                op + " at its match word");
        assertThat(e).hasMessageThat().contains("reserved");
        assertThat(e.size()).isEqualTo(2);
        assertDecodesTo(op, RESERVED_AT_MATCH.get(op));
      } else if (SHADOWED_AT_MATCH.containsKey(op)) {
        Op winner = declaredWinnerOver(op);
        assertWithMessage("%s is shadowed only by a declared overlap", op).that(winner).isNotNull();
        if (winner != Op.C_JR) {
          assertDecodesTo(winner, word);
        }
        assertDecodesTo(op, SHADOWED_AT_MATCH.get(op));
      } else {
        assertDecodesTo(op, word);
      }
    }
  }

  /** Of the declared winners over {@code loser} that match its match word, the most specific. */
  private static Op declaredWinnerOver(Op loser) {
    Op best = null;
    for (List<Op> pair : Isa.DECLARED_OVERLAPS) {
      Op w = pair.get(0);
      if (pair.get(1) == loser
          && w.matches(loser.match())
          && (best == null || Integer.bitCount(w.mask()) > Integer.bitCount(best.mask()))) {
        best = w;
      }
    }
    return best;
  }

  private static void assertDecodesTo(Op op, int word) {
    DecodedInsn d = Decoder.decode(0x1000, word);
    assertWithMessage("decode(0x%s)", Integer.toHexString(word)).that(d.op).isEqualTo(op);
    assertThat(d.exec).isEqualTo(op.base());
    assertThat(d.size).isEqualTo(op.size());
    assertThat(d.npc).isEqualTo(0x1000 + op.size());
  }

  @Test
  void reservedAndUnknownEncodingsAreIllegal() {
    int[] illegal = {
      0x00000000, // all-zero halfword: c.addi4spn with nzuimm 0
      0xffffffff, // all ones
      0x0000000b | (2 << 12), // custom-0 funct3 2: no row
      0x6101, // c.addi16sp sp,0
      0x2001, // c.addiw x0
    };
    for (int w : illegal) {
      assertThrows(
          IllegalInstructionException.class, () -> Decoder.decode(0, w), Integer.toHexString(w));
    }
  }

  @Test
  void hintEncodingsDecodeAsTheirRows() {
    // RVC HINTs execute as no-ops and must decode (compressed.elf runs them).
    assertThat(Decoder.decode(0, 0x0005).op).isEqualTo(Op.C_ADDI); // c.addi x0,1
    assertThat(Decoder.decode(0, 0x4005).op).isEqualTo(Op.C_LI); // c.li x0,1
    assertThat(Decoder.decode(0, 0x800a).op).isEqualTo(Op.C_MV); // c.mv x0,sp
    assertThat(Decoder.decode(0, 0x900a).op).isEqualTo(Op.C_ADD); // c.add x0,sp
    assertThat(Decoder.decode(0, 0x0006).op).isEqualTo(Op.C_SLLI); // c.slli x0,1
    assertThat(Decoder.decode(0, 0x0005).rd).isEqualTo(DecodedInsn.X0_SINK);
  }
}
