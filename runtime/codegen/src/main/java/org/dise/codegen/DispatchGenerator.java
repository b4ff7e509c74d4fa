package org.dise.codegen;

import com.squareup.javapoet.ArrayTypeName;
import com.squareup.javapoet.ClassName;
import com.squareup.javapoet.CodeBlock;
import com.squareup.javapoet.FieldSpec;
import com.squareup.javapoet.JavaFile;
import com.squareup.javapoet.MethodSpec;
import com.squareup.javapoet.TypeSpec;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Modifier;
import org.dise.runtime.isa.Extension;
import org.dise.runtime.isa.Operand;
import org.dise.runtime.isa.SemanticsTable;

/**
 * {@code org.dise.runtime.cpu.Dispatch}: the interpreter's per-instruction dispatch, one switch
 * case per row of {@link SemanticsTable}, each calling the row's {@code Semantics} method on the
 * operands the row lists and putting the result where it says (Spike's approach: the dispatch is
 * generated from the one description of each instruction, never written by hand). CSR and system
 * instructions are the interpreter's own business: the switch hands them back to it.
 */
public final class DispatchGenerator implements Generator {
  static final String PACKAGE = "org.dise.runtime.cpu";

  private static final ClassName INTERPRETER = ClassName.get(PACKAGE, "Interpreter");
  private static final ClassName CPU = ClassName.get(PACKAGE, "Cpu");
  private static final ClassName FPU = ClassName.get(PACKAGE, "Fpu");
  private static final ClassName SEMANTICS = ClassName.get(PACKAGE, "Semantics");
  private static final ClassName RETIRE = ClassName.get(PACKAGE, "RetireObserver");
  private static final ClassName INSN = ClassName.get("org.dise.runtime.isa", "DecodedInsn");
  private static final ClassName OPCODES = ClassName.get("org.dise.runtime.isa", "Opcodes");
  private static final ClassName MEMORY = ClassName.get("org.dise.runtime.mem", "Memory");

  @Override
  public String name() {
    return "dispatch";
  }

  @Override
  public JavaFile generate() {
    TypeSpec type =
        TypeSpec.classBuilder("Dispatch")
            .addModifiers(Modifier.FINAL)
            .addJavadoc(
                "The interpreter's dispatch: one case per instruction, calling its {@link $T}"
                    + " method as\n{@code isa.SemanticsTable} describes it. Written at build time"
                    + " by runtime/codegen\n({@code $L}); never edited or committed.\n",
                SEMANTICS,
                DispatchGenerator.class.getSimpleName())
            .addField(
                FieldSpec.builder(long.class, "SYSTEM", Modifier.STATIC, Modifier.FINAL)
                    .addJavadoc(
                        "What {@link #run} returns when it reaches a CSR or system instruction,"
                            + " which the\ninterpreter runs itself ({@code in.at} is its index):"
                            + " odd, so never a next pc.\n")
                    .initializer("1L")
                    .build())
            .addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build())
            .addMethod(run())
            .addMethod(floating())
            .addMethod(amo())
            .build();
    return JavaFile.builder(PACKAGE, type).skipJavaLangImports(true).indent("  ").build();
  }

  /**
   * {@code run}: the instructions {@code [from, n)} of a block, up to a transfer or a system one.
   */
  private static MethodSpec run() {
    CodeBlock.Builder sw = cases(false);
    sw.add("default:\n")
        .indent()
        .beginControlFlow("if (floating(in, d, x, f, mem, u))")
        .addStatement("break")
        .endControlFlow()
        .addStatement("in.at = i")
        .addStatement("return SYSTEM")
        .unindent()
        .endControlFlow();
    CodeBlock code =
        CodeBlock.builder()
            .addStatement("int i = from")
            .beginControlFlow("try")
            .beginControlFlow("for (; i < n; i++)")
            .addStatement("$T d = insns[i]", INSN)
            .beginControlFlow("if (retiring != null)")
            .addStatement("retiring.retire(d, cpu)")
            .endControlFlow()
            .add(sw.build())
            .endControlFlow()
            .addStatement("return insns[n - 1].npc")
            .nextControlFlow("catch ($T e)", RuntimeException.class)
            .add("// The interpreter's handlers need the instruction that threw.\n")
            .addStatement("in.at = i")
            .addStatement("throw e")
            .endControlFlow()
            .build();
    return MethodSpec.methodBuilder("run")
        .addModifiers(Modifier.STATIC)
        .returns(long.class)
        .addJavadoc(
            "Runs {@code insns[from..n)} on the hart's state and returns the next pc: a transfer's"
                + " target, or\nthe last one's fall-through; or {@link #SYSTEM} at a CSR or system"
                + " instruction, not run, at index\n{@code in.at}. A throwing instruction leaves"
                + " its index in {@code in.at}; the ones before it ran.\n")
        .addParameter(INTERPRETER, "in")
        .addParameter(CPU, "cpu")
        .addParameter(ArrayTypeName.of(INSN), "insns")
        .addParameter(int.class, "from")
        .addParameter(int.class, "n")
        .addParameter(long[].class, "x")
        .addParameter(long[].class, "f")
        .addParameter(MEMORY, "mem")
        .addParameter(FPU, "u")
        .addParameter(RETIRE, "retiring")
        .addCode(code)
        .build();
  }

  /**
   * Whether the row is an F or D instruction that neither branches nor jumps: those run in {@code
   * floating}, outside {@code run}'s switch. Half of the table's rows, they would double the size
   * of the method every interpreted instruction goes through, and with it C1's time to compile it
   * (40 ms of a hello's 0.2 s, which a short run waits for at exit: docs/benchmarks.md).
   */
  private static boolean floating(SemanticsTable.Entry e) {
    Extension x = e.op().extension();
    return (x == Extension.F || x == Extension.D)
        && e.kind() != SemanticsTable.Kind.BRANCH
        && e.kind() != SemanticsTable.Kind.JUMP;
  }

  /**
   * {@code switch (d.opcode) {} opened with a case per row that has one, the {@link #floating} rows'
   * or the others' as {@code floatingRows} says; the caller adds the default and closes it.
   */
  private static CodeBlock.Builder cases(boolean floatingRows) {
    CodeBlock.Builder sw = CodeBlock.builder().beginControlFlow("switch (d.opcode)");
    for (SemanticsTable.Entry e : SemanticsTable.all()) {
      CodeBlock body = caseBody(e);
      if (body != null && floating(e) == floatingRows) {
        sw.add("case $T.$L:\n", OPCODES, e.op().name()).indent().add(body).unindent();
      }
    }
    return sw;
  }

  /** {@code floating}: one F or D instruction, or false for an instruction that is not one. */
  private static MethodSpec floating() {
    CodeBlock.Builder sw = cases(true);
    sw.add("default:\n").indent().addStatement("return false").unindent().endControlFlow();
    return MethodSpec.methodBuilder("floating")
        .addModifiers(Modifier.STATIC)
        .returns(boolean.class)
        .addJavadoc(
            "Runs F or D instruction {@code d} (its case in {@link #run}); false, having run"
                + " nothing, for any other.\n")
        .addParameter(INTERPRETER, "in")
        .addParameter(INSN, "d")
        .addParameter(long[].class, "x")
        .addParameter(long[].class, "f")
        .addParameter(MEMORY, "mem")
        .addParameter(FPU, "u")
        .addCode(sw.build())
        .addStatement("return true")
        .build();
  }

  /** One case's statements, ending in break or return; null for the interpreter's own kinds. */
  private static CodeBlock caseBody(SemanticsTable.Entry e) {
    CodeBlock.Builder b = CodeBlock.builder();
    switch (e.kind()) {
      case VALUE -> {
        b.addStatement("$L = $L", dest(e), call(e, args(e)));
        b.addStatement("break");
      }
      case BRANCH -> b.addStatement("return $L ? d.pc + d.imm : d.npc", call(e, args(e)));
      case JUMP -> {
        // The target first: rd may be rs1.
        b.add("{\n").indent();
        b.addStatement("long t = $L", call(e, args(e)));
        b.addStatement("x[d.rd] = d.npc");
        b.addStatement("return t");
        b.unindent().add("}\n");
      }
      case LOAD -> {
        b.addStatement("$L = $L", dest(e), call(e, List.of("mem", "x[d.rs1] + d.imm")));
        b.addStatement("break");
      }
      case STORE -> {
        List<String> a = new ArrayList<>(List.of("mem", "x[d.rs1] + d.imm"));
        a.addAll(sources(e));
        b.addStatement("$L", call(e, a));
        b.addStatement("break");
      }
      case ATOMIC -> {
        // lr/sc and the AMOs: the hart keeps the reservation and the alignment check.
        b.addStatement("x[d.rd] = in.atomic(x[d.rs1], x[d.rs2], d.opcode)");
        b.addStatement("break");
      }
      default -> {
        return null; // CSR, SYSTEM
      }
    }
    return b.build();
  }

  /** {@code amo}: what an AMO writes back, its method on the old value and rs2's. */
  private static MethodSpec amo() {
    CodeBlock.Builder sw = CodeBlock.builder().beginControlFlow("switch (opcode)");
    for (SemanticsTable.Entry e : SemanticsTable.all()) {
      if (e.kind() == SemanticsTable.Kind.ATOMIC && e.method() != null) {
        sw.add("case $T.$L:\n", OPCODES, e.op().name())
            .indent()
            .addStatement("return $L", call(e, List.of("old", "src")))
            .unindent();
      }
    }
    sw.add("default:\n")
        .indent()
        .addStatement(
            "throw new $T($S + opcode)", IllegalStateException.class, "not an AMO: opcode ")
        .unindent()
        .endControlFlow();
    return MethodSpec.methodBuilder("amo")
        .addModifiers(Modifier.STATIC)
        .returns(long.class)
        .addJavadoc("The value AMO {@code opcode} stores, from the old value and rs2's.\n")
        .addParameter(int.class, "opcode")
        .addParameter(long.class, "old")
        .addParameter(long.class, "src")
        .addCode(sw.build())
        .build();
  }

  /** The row's method on {@code args} (a CodeBlock, so that JavaPoet imports Semantics). */
  private static CodeBlock call(SemanticsTable.Entry e, List<String> args) {
    return CodeBlock.of("$T.$L($L)", SEMANTICS, e.method(), String.join(", ", args));
  }

  /** The method's arguments, in the order the row gives. */
  private static List<String> args(SemanticsTable.Entry e) {
    List<String> a = new ArrayList<>();
    if (e.fpu()) {
      a.add("u");
    }
    if (e.pc()) {
      a.add("d.pc");
    }
    a.addAll(sources(e));
    if (e.rm()) {
      a.add("in.rm(d)");
    }
    return a;
  }

  private static List<String> sources(SemanticsTable.Entry e) {
    List<String> a = new ArrayList<>();
    for (Operand o : e.sources()) {
      a.add(
          switch (o) {
            case RS1 -> "x[d.rs1]";
            case RS2 -> "x[d.rs2]";
            case FRS1 -> "f[d.rs1]";
            case FRS2 -> "f[d.rs2]";
            case FRS3 -> "f[d.rs3]";
            default -> "d.imm"; // imm, uimm, shamt
          });
    }
    return a;
  }

  private static String dest(SemanticsTable.Entry e) {
    return e.dest() == Operand.FRD ? "f[d.rd]" : "x[d.rd]";
  }
}
