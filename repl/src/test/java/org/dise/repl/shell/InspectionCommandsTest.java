package org.dise.repl.shell;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.DiseEngine;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.linux.Sandbox;
import org.junit.jupiter.api.Test;

/** The inspection command group alone: a machine of its own behind a view, no session. */
class InspectionCommandsTest {
  private static final Path ROOT = ReplTranscriptTest.ROOT;

  private final StringBuilder out = new StringBuilder();
  private final ShadowStack stack = new ShadowStack();
  private Machine machine;

  private InspectionCommands commands() throws Exception {
    machine =
        Machine.load(
            ROOT.resolve("examples/programs/bin/hello"),
            List.of(),
            new Machine.Options(
                new Sandbox(ROOT),
                List.of(),
                0x5eed,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
    return new InspectionCommands(
        new InspectionCommands.ProgramView() {
          @Override
          public Machine requireProgram() {
            return machine;
          }

          @Override
          public Machine machine() {
            return machine;
          }

          @Override
          public DiseEngine engine() {
            return null;
          }

          @Override
          public ProductionSet requireSet() {
            throw new ReplError("no productions");
          }

          @Override
          public ShadowStack shadow() {
            return stack;
          }

          @Override
          public String instructionCount() {
            return machine.cpu().instret() + " instructions";
          }

          @Override
          public long address(String s) {
            return s.startsWith("0x")
                ? Long.parseUnsignedLong(s.substring(2), 16)
                : machine.symbols().byName(s).orElseThrow().address();
          }

          @Override
          public long value(String s) {
            return address(s);
          }
        },
        out);
  }

  private String run(Runnable r) {
    out.setLength(0);
    r.run();
    return out.toString();
  }

  @Test
  void typedMemoryViewsReadTheGuestsMemory() throws Exception {
    InspectionCommands c = commands();
    long main = machine.symbols().byName("main").orElseThrow().address();
    byte[] word = machine.memory().read(main, 4);
    long expected =
        (word[0] & 0xffL)
            | (word[1] & 0xffL) << 8
            | (word[2] & 0xffL) << 16
            | (word[3] & 0xffL) << 24;
    assertThat(run(() -> c.mem(List.of("x/1xw", "main"))))
        .isEqualTo(String.format("%08x <main>:  0x%08x%n", main, expected));
    assertThat(run(() -> c.mem(List.of("x/2a", "main")))).contains("<main>:  0x");
    assertThrows(ReplError.class, () -> c.mem(List.of("x/4q", "main")));
  }

  @Test
  void backtraceAndRegistersComeFromTheView() throws Exception {
    InspectionCommands c = commands();
    long main = machine.symbols().byName("main").orElseThrow().address();
    stack.call(0x100, main + 0x2a, main + 0x100);
    assertThat(run(c::backtrace)).contains(String.format("#1  %016x  main+0x2a", main + 0x2a));
    assertThat(run(() -> c.set(List.of("reg", "a0", "0x2a")))).isEqualTo("a0 = 0x2a\n");
    assertThat(run(c::regs)).contains("a0   000000000000002a");
    // Counters need an engine: said, not a stack trace.
    ReplError e = assertThrows(ReplError.class, () -> c.set(List.of("counter", "0", "1")));
    assertThat(e.getMessage()).contains("counters exist while a program runs under productions");
  }
}
