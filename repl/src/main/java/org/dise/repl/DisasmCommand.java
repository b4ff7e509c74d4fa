package org.dise.repl;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.UserError;
import org.dise.runtime.Machine;
import org.dise.runtime.elf.Symbol;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Decoder;
import org.dise.runtime.isa.Disassembler;
import org.dise.runtime.isa.IllegalInstructionException;
import org.dise.runtime.mem.Memory;
import org.dise.runtime.mem.MemoryFault;
import org.dise.runtime.session.ProfilingSession;
import org.dise.runtime.session.SessionOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code acf disasm}: disassembles a program's functions with the emulator's own decoder. */
@Command(
    name = "disasm",
    description = "Disassemble a RISC-V program (objdump syntax) with the emulator's decoder.",
    footer = {
      "",
      "Examples:",
      "  ./acf disasm examples/programs/bin/hello --function main",
      "  ./acf disasm --address 0x107b0 --count 20 examples/programs/bin/jpeg",
      "      # from jpeg's entry point, _start (readelf -h shows it)",
    },
    mixinStandardHelpOptions = true)
public final class DisasmCommand implements Callable<Integer> {
  @Option(
      names = {"-f", "--function"},
      paramLabel = "NAME",
      description = "Disassemble only this function (repeatable).")
  List<String> functions = new java.util.ArrayList<>();

  @Option(
      names = "--address",
      paramLabel = "ADDR",
      description = "Start address (hex with 0x, or decimal).")
  String address;

  @Option(
      names = "--count",
      paramLabel = "N",
      description = "Instructions to show from --address (default: ${DEFAULT-VALUE}).")
  int count = 32;

  @Parameters(paramLabel = "PROGRAM", description = "The RISC-V ELF program.")
  Path program;

  @Override
  public Integer call() {
    Machine m =
        ProfilingSession.of(
                SessionOptions.plain(program, List.of()), Machine.Options.defaults(), null)
            .load();
    PrintStream out = System.out;
    if (m.isDynamic()) {
      // Only the program and its dynamic linker are mapped before it runs; calls into libraries
      // go through PLT stubs (NAME@plt), bound when the dynamic linker maps the libraries.
      System.err.println(
          "note: "
              + program
              + " is dynamically linked (interpreter "
              + m.elf().interpreter()
              + "): shown are its own functions; the libraries it needs ("
              + String.join(", ", m.elf().needed())
              + ") bind at run time, and calls into them go through NAME@plt stubs");
    }
    if (address != null) {
      long a = parseAddress(address);
      String[] shown = {null};
      for (int i = 0; i < count; i++) {
        a = line(m, a, out, shown);
        if (a < 0) {
          break;
        }
      }
      return 0;
    }
    List<Symbol> syms = m.symbols().symbols();
    boolean any = false;
    for (Symbol s : syms) {
      if (!functions.isEmpty() && !functions.contains(s.name())) {
        continue;
      }
      if (s.size() == 0 || (m.memory().protection(s.address()) & Memory.PROT_EXEC) == 0) {
        continue;
      }
      any = true;
      out.printf("%n%016x <%s>:%n", s.address(), s.name());
      String[] shown = {null};
      for (long a = s.address(); a >= 0 && a < s.address() + s.size(); ) {
        a = line(m, a, out, shown);
      }
    }
    if (!any && !functions.isEmpty()) {
      throw new UserError("no function named " + String.join(", ", functions) + " in " + program);
    }
    return 0;
  }

  static long parseAddress(String s) {
    try {
      return s.startsWith("0x") || s.startsWith("0X")
          ? Long.parseUnsignedLong(s.substring(2), 16)
          : Long.parseLong(s);
    } catch (NumberFormatException e) {
      throw new UserError("not an address: " + s, ExitStatus.USAGE);
    }
  }

  /**
   * Prints one instruction, after its source line ({@code lines.c:12}, as {@code objdump -l} does)
   * when that differs from {@code shown[0]}, the last one printed; returns the next address, or -1
   * when memory ends.
   */
  private static long line(Machine m, long a, PrintStream out, String[] shown) {
    String source = m.symbols().line(a).map(Object::toString).orElse(null);
    if (source != null && !source.equals(shown[0])) {
      out.println(source);
    }
    shown[0] = source;
    int lo;
    try {
      lo = m.memory().fetch16(a);
    } catch (MemoryFault e) {
      out.printf("%8x:\t(not executable memory)%n", a);
      return -1;
    }
    boolean isLong = Decoder.isLong(lo);
    int raw = isLong ? lo | (m.memory().fetch16(a + 2) << 16) : lo;
    String bytes = isLong ? String.format("%08x", raw) : String.format("%04x", raw);
    String text;
    try {
      DecodedInsn d = Decoder.decode(a, raw);
      text = Disassembler.format(d, m.symbols());
    } catch (IllegalInstructionException e) {
      text =
          isLong ? ".word\t0x" + Integer.toHexString(raw) : ".short\t0x" + Integer.toHexString(lo);
    }
    out.printf("%8x:\t%-20s\t%s%n", a, bytes, text);
    return a + (isLong ? 4 : 2);
  }
}
