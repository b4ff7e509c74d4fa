package org.dise.compiler.lower;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.dise.compiler.diag.Span;
import org.dise.compiler.sem.CheckedReplacement.Arg;

/**
 * The pseudo-instructions a replacement may use, as the base instruction each stands for (the
 * RISC-V assembly manual's expansions). {@code $n} is the pseudo's n-th operand; {@code li} is
 * expanded by the runtime's instantiation logic, since its value may be a directive.
 */
final class Pseudos {
  private Pseudos() {}

  static final Map<String, String> TABLE = Map.ofEntries(
      Map.entry("nop", "addi x0,x0,0"),
      Map.entry("mv", "addi $0,$1,0"),
      Map.entry("not", "xori $0,$1,-1"),
      Map.entry("neg", "sub $0,x0,$1"),
      Map.entry("negw", "subw $0,x0,$1"),
      Map.entry("sext.w", "addiw $0,$1,0"),
      Map.entry("seqz", "sltiu $0,$1,1"),
      Map.entry("snez", "sltu $0,x0,$1"),
      Map.entry("sltz", "slt $0,$1,x0"),
      Map.entry("sgtz", "slt $0,x0,$1"),
      Map.entry("beqz", "beq $0,x0,$1"),
      Map.entry("bnez", "bne $0,x0,$1"),
      Map.entry("blez", "bge x0,$0,$1"),
      Map.entry("bgez", "bge $0,x0,$1"),
      Map.entry("bltz", "blt $0,x0,$1"),
      Map.entry("bgtz", "blt x0,$0,$1"),
      Map.entry("bgt", "blt $1,$0,$2"),
      Map.entry("ble", "bge $1,$0,$2"),
      Map.entry("bgtu", "bltu $1,$0,$2"),
      Map.entry("bleu", "bgeu $1,$0,$2"),
      Map.entry("j", "jal x0,$0"),
      Map.entry("jr", "jalr x0,0($0)"),
      Map.entry("ret", "jalr x0,0(x1)"),
      Map.entry("fmv.s", "fsgnj.s $0,$1,$1"),
      Map.entry("fmv.d", "fsgnj.d $0,$1,$1"),
      Map.entry("fabs.s", "fsgnjx.s $0,$1,$1"),
      Map.entry("fabs.d", "fsgnjx.d $0,$1,$1"),
      Map.entry("fneg.s", "fsgnjn.s $0,$1,$1"),
      Map.entry("fneg.d", "fsgnjn.d $0,$1,$1"),
      Map.entry("csrr", "csrrs $0,$1,x0"),
      Map.entry("csrw", "csrrw x0,$0,$1"),
      Map.entry("csrs", "csrrs x0,$0,$1"),
      Map.entry("csrc", "csrrc x0,$0,$1"),
      Map.entry("csrwi", "csrrwi x0,$0,$1"),
      Map.entry("csrsi", "csrrsi x0,$0,$1"),
      Map.entry("csrci", "csrrci x0,$0,$1"),
      Map.entry("rdcycle", "csrrs $0,cycle,x0"),
      Map.entry("rdtime", "csrrs $0,time,x0"),
      Map.entry("rdinstret", "csrrs $0,instret,x0"),
      Map.entry("frcsr", "csrrs $0,fcsr,x0"),
      Map.entry("fscsr", "csrrw $0,fcsr,$1"),
      Map.entry("zext.b", "andi $0,$1,255"));

  /** The base instruction's operands for a pseudo's operand template. */
  static List<Arg> operands(String template, List<Arg> ops, Span span) {
    List<Arg> out = new ArrayList<>();
    for (String t : template.split(",")) {
      out.add(operand(t, ops, span));
    }
    return out;
  }

  private static Arg operand(String t, List<Arg> ops, Span span) {
    if (t.startsWith("$")) {
      return ops.get(Integer.parseInt(t.substring(1)));
    }
    if (t.endsWith(")")) {
      int open = t.indexOf('(');
      return new Arg.Mem(operand(t.substring(0, open), ops, span),
          operand(t.substring(open + 1, t.length() - 1), ops, span), span);
    }
    if (t.matches("x\\d+")) {
      return new Arg.XReg(Integer.parseInt(t.substring(1)), span);
    }
    if (t.matches("-?\\d+")) {
      return new Arg.Imm(Long.parseLong(t), span);
    }
    return new Arg.Symbol(t, span);
  }
}
