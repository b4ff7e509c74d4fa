package org.dise.runtime.isa;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A pseudo-instruction of the RISC-V assembly manual: its mnemonic, its operands and the base
 * instruction it stands for. One table, read by the compiler's operand checks and its lowering of
 * replacement sequences; the disassembler prints the same mnemonics where objdump does.
 *
 * @param operands the operand kinds, comma-separated: {@code x} an integer register, {@code f} a
 *     floating-point register, {@code i} an immediate, {@code b} a branch target, {@code j} a jump
 *     target, {@code c} a CSR
 * @param expansion the base instruction, {@code $n} standing for the n-th operand; null for {@code
 *     li}, which the runtime's instantiation logic expands (its value may be a directive)
 */
public record PseudoInstruction(String mnemonic, String operands, String expansion) {
  /** The common pseudo-instructions; those reaching outside a sequence (call, tail, la) are not. */
  public static final List<PseudoInstruction> ALL =
      List.of(
          p("nop", "", "addi x0,x0,0"),
          p("li", "x,i", null),
          p("mv", "x,x", "addi $0,$1,0"),
          p("not", "x,x", "xori $0,$1,-1"),
          p("neg", "x,x", "sub $0,x0,$1"),
          p("negw", "x,x", "subw $0,x0,$1"),
          p("sext.w", "x,x", "addiw $0,$1,0"),
          p("zext.b", "x,x", "andi $0,$1,255"),
          p("seqz", "x,x", "sltiu $0,$1,1"),
          p("snez", "x,x", "sltu $0,x0,$1"),
          p("sltz", "x,x", "slt $0,$1,x0"),
          p("sgtz", "x,x", "slt $0,x0,$1"),
          p("beqz", "x,b", "beq $0,x0,$1"),
          p("bnez", "x,b", "bne $0,x0,$1"),
          p("blez", "x,b", "bge x0,$0,$1"),
          p("bgez", "x,b", "bge $0,x0,$1"),
          p("bltz", "x,b", "blt $0,x0,$1"),
          p("bgtz", "x,b", "blt x0,$0,$1"),
          p("bgt", "x,x,b", "blt $1,$0,$2"),
          p("ble", "x,x,b", "bge $1,$0,$2"),
          p("bgtu", "x,x,b", "bltu $1,$0,$2"),
          p("bleu", "x,x,b", "bgeu $1,$0,$2"),
          p("j", "j", "jal x0,$0"),
          p("jr", "x", "jalr x0,0($0)"),
          p("ret", "", "jalr x0,0(x1)"),
          p("fmv.s", "f,f", "fsgnj.s $0,$1,$1"),
          p("fmv.d", "f,f", "fsgnj.d $0,$1,$1"),
          p("fabs.s", "f,f", "fsgnjx.s $0,$1,$1"),
          p("fabs.d", "f,f", "fsgnjx.d $0,$1,$1"),
          p("fneg.s", "f,f", "fsgnjn.s $0,$1,$1"),
          p("fneg.d", "f,f", "fsgnjn.d $0,$1,$1"),
          p("csrr", "x,c", "csrrs $0,$1,x0"),
          p("csrw", "c,x", "csrrw x0,$0,$1"),
          p("csrs", "c,x", "csrrs x0,$0,$1"),
          p("csrc", "c,x", "csrrc x0,$0,$1"),
          p("csrwi", "c,i", "csrrwi x0,$0,$1"),
          p("csrsi", "c,i", "csrrsi x0,$0,$1"),
          p("csrci", "c,i", "csrrci x0,$0,$1"),
          p("rdcycle", "x", "csrrs $0,cycle,x0"),
          p("rdtime", "x", "csrrs $0,time,x0"),
          p("rdinstret", "x", "csrrs $0,instret,x0"),
          p("frcsr", "x", "csrrs $0,fcsr,x0"),
          p("fscsr", "x,x", "csrrw $0,fcsr,$1"),
          p("frrm", "x", "csrrs $0,frm,x0"),
          p("fsrm", "x,x", "csrrw $0,frm,$1"),
          p("frflags", "x", "csrrs $0,fflags,x0"),
          p("fsflags", "x,x", "csrrw $0,fflags,$1"),
          p("fsrmi", "x,i", "csrrwi $0,frm,$1"),
          p("fsflagsi", "x,i", "csrrwi $0,fflags,$1"));

  private static PseudoInstruction p(String mnemonic, String operands, String expansion) {
    return new PseudoInstruction(mnemonic, operands, expansion);
  }

  public static Optional<PseudoInstruction> byMnemonic(String mnemonic) {
    String m = mnemonic.toLowerCase(Locale.ROOT);
    return ALL.stream().filter(p -> p.mnemonic.equals(m)).findFirst();
  }

  /** The base instruction's mnemonic ({@code addi} for {@code mv}); null for {@code li}. */
  public String baseMnemonic() {
    if (expansion == null) {
      return null;
    }
    int sp = expansion.indexOf(' ');
    return sp < 0 ? expansion : expansion.substring(0, sp);
  }

  /** The base instruction's operand templates ({@code $0}, {@code x0}, {@code 0($0)}, ...). */
  public List<String> baseOperands() {
    if (expansion == null || expansion.indexOf(' ') < 0) {
      return List.of();
    }
    return List.of(expansion.substring(expansion.indexOf(' ') + 1).split(","));
  }
}
