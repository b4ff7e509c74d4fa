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

/**
 * The instruction table of the runtime ({@link Isa}, one row per RV64GC mnemonic) seen as the
 * front end needs it, plus the common pseudo-instructions a replacement may use.
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
    for (Map.Entry<String, String> p : PSEUDO.entrySet()) {
      signatures.putIfAbsent(p.getKey(), parse(p.getValue()));
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

  /**
   * The common pseudo-instructions (RISC-V assembly manual) and their operands; those that
   * reach outside the sequence ({@code call}, {@code tail}, {@code la}) are not offered.
   * TODO: read the runtime's pseudo-instruction table once it lands.
   */
  private static final Map<String, String> PSEUDO = new LinkedHashMap<>();

  static {
    String[][] rows = {
      {"nop", ""}, {"li", "x,i"}, {"mv", "x,x"}, {"not", "x,x"}, {"neg", "x,x"},
      {"negw", "x,x"}, {"sext.w", "x,x"}, {"seqz", "x,x"}, {"snez", "x,x"}, {"sltz", "x,x"},
      {"sgtz", "x,x"}, {"beqz", "x,b"}, {"bnez", "x,b"}, {"blez", "x,b"}, {"bgez", "x,b"},
      {"bltz", "x,b"}, {"bgtz", "x,b"}, {"bgt", "x,x,b"}, {"ble", "x,x,b"}, {"bgtu", "x,x,b"},
      {"bleu", "x,x,b"}, {"j", "j"}, {"jr", "x"}, {"ret", ""}, {"fmv.s", "f,f"},
      {"fmv.d", "f,f"}, {"fabs.s", "f,f"}, {"fabs.d", "f,f"}, {"fneg.s", "f,f"},
      {"fneg.d", "f,f"}, {"csrr", "x,c"}, {"csrw", "c,x"}, {"csrs", "c,x"}, {"csrc", "c,x"},
      {"csrwi", "c,i"}, {"csrsi", "c,i"}, {"csrci", "c,i"}, {"rdcycle", "x"},
      {"rdtime", "x"}, {"rdinstret", "x"}, {"frcsr", "x"}, {"fscsr", "x,x"},
      {"zext.b", "x,x"},
    };
    for (String[] r : rows) {
      PSEUDO.put(r[0], r[1]);
    }
  }

  private static List<OperandKind> parse(String sig) {
    List<OperandKind> kinds = new ArrayList<>();
    if (!sig.isEmpty()) {
      for (String s : sig.split(",")) {
        kinds.add(switch (s) {
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
