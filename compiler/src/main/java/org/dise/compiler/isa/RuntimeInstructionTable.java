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
  private final Map<String, List<OperandKind>> signatures = new LinkedHashMap<>();
  private final List<String> opClasses = new ArrayList<>();

  private RuntimeInstructionTable() {
    for (Op op : Isa.all()) {
      List<OperandKind> kinds = new ArrayList<>();
      for (Operand o : op.operands()) {
        kinds.add(kind(o));
      }
      signatures.put(op.mnemonic(), List.copyOf(kinds));
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

  private static OperandKind kind(Operand o) {
    return switch (o) {
      case RD, RS1, RS2 -> OperandKind.XREG;
      case FRD, FRS1, FRS2, FRS3 -> OperandKind.FREG;
      case IMM -> OperandKind.IMM;
      case UIMM -> OperandKind.UIMM;
      case SHAMT -> OperandKind.SHAMT;
      case MEM -> OperandKind.MEM;
      case AMO_ADDR -> OperandKind.AMO_ADDR;
      case BRANCH_TARGET -> OperandKind.BRANCH_TARGET;
      case JUMP_TARGET -> OperandKind.JUMP_TARGET;
      case CSR -> OperandKind.CSR;
      case ZIMM -> OperandKind.ZIMM;
      case RM -> OperandKind.RM;
      case PRED, SUCC -> OperandKind.FENCE_SET;
    };
  }

  private static List<OperandKind> parse(String sig) {
    List<OperandKind> kinds = new ArrayList<>();
    if (!sig.isEmpty()) {
      for (String s : sig.split(",")) {
        kinds.add(
            switch (s) {
              case "x" -> OperandKind.XREG;
              case "f" -> OperandKind.FREG;
              case "b" -> OperandKind.BRANCH_TARGET;
              case "j" -> OperandKind.JUMP_TARGET;
              case "c" -> OperandKind.CSR;
              default -> OperandKind.IMM;
            });
      }
    }
    return List.copyOf(kinds);
  }

  @Override
  public Optional<List<OperandKind>> operands(String mnemonic) {
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
