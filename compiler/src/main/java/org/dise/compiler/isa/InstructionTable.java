package org.dise.compiler.isa;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.dise.runtime.isa.Operand;

/**
 * What the front end needs to know of the instruction set: the operand signature of every mnemonic
 * a replacement may use, the opcode classes and the codewords a pattern may name. The runtime's ISA
 * table is the one source ({@link RuntimeInstructionTable}).
 */
public interface InstructionTable {
  /**
   * The operand positions of a mnemonic (lower case), in the runtime's own terms ({@link Operand}:
   * a pseudo-instruction's integer registers read as {@code RD}, its floating-point ones as {@code
   * FRD}), or empty when there is no such mnemonic.
   */
  Optional<List<Operand>> operands(String mnemonic);

  /** Every mnemonic, pseudo-instructions included, for suggestions. */
  Collection<String> mnemonics();

  /** Every opcode class name ({@code branch}, {@code proc_call}...). */
  Collection<String> opClasses();

  /** Codewords a trigger injects ({@code on_trig_inst}, {@code off_trig_inst}). */
  default Collection<String> codewords() {
    return List.of("on_trig_inst", "off_trig_inst");
  }
}
