package org.dise.compiler.isa;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.dise.runtime.isa.Isa;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.OpClass;
import org.dise.runtime.isa.Operand;
import org.dise.runtime.isa.PseudoInstruction;

/**
 * The instruction table of the runtime ({@link Isa}, one row per RV64GC mnemonic) seen as the front
 * end needs it, plus the pseudo-instructions of the runtime's table ({@link PseudoInstruction}) a
 * replacement may use.
 */
public final class RuntimeInstructionTable implements InstructionTable {
  private final Map<String, List<Operand>> signatures = new LinkedHashMap<>();
  private final List<String> opClasses = new ArrayList<>();

  private RuntimeInstructionTable() {
    for (Op op : Isa.all()) {
      signatures.put(op.mnemonic(), op.operands());
    }
    for (PseudoInstruction p : PseudoInstruction.ALL) {
      signatures.putIfAbsent(p.mnemonic(), parse(p.operands()));
    }
    for (OpClass c : OpClass.values()) {
      opClasses.add(c.acfName());
    }
  }

  public static RuntimeInstructionTable get() {
    return Holder.INSTANCE;
  }

  private static final class Holder {
    static final RuntimeInstructionTable INSTANCE = new RuntimeInstructionTable();
  }

  private static List<Operand> parse(String sig) {
    List<Operand> kinds = new ArrayList<>();
    if (!sig.isEmpty()) {
      for (String s : sig.split(",")) {
        kinds.add(
            switch (s) {
              case "x" -> Operand.RD;
              case "f" -> Operand.FRD;
              case "b" -> Operand.BRANCH_TARGET;
              case "j" -> Operand.JUMP_TARGET;
              case "c" -> Operand.CSR;
              default -> Operand.IMM;
            });
      }
    }
    return List.copyOf(kinds);
  }

  @Override
  public Optional<List<Operand>> operands(String mnemonic) {
    return Optional.ofNullable(signatures.get(mnemonic));
  }

  @Override
  public Collection<String> mnemonics() {
    return signatures.keySet();
  }

  @Override
  public Collection<String> opClasses() {
    return opClasses;
  }
}
