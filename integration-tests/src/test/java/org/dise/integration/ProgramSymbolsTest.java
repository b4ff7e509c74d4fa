package org.dise.integration;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.StopReason;
import org.dise.runtime.dise.DiseEngine;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.dise.SymbolBinding;
import org.dise.runtime.dise.SymbolRef;
import org.dise.runtime.dise.config.ConfigFormat;
import org.dise.runtime.dise.config.DeployableConfig;
import org.dise.runtime.elf.ProgramSymbols;
import org.dise.runtime.isa.OpClass;
import org.dise.runtime.sink.ProfileTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code symbol(NAME)} and {@code symbol_end(NAME)} end to end on a C program with a known answer
 * (examples/programs/arrays.c): the loads into its array {@code hot_table}, per load pc, on both
 * engines and from a configuration, on two builds of the program whose addresses differ.
 */
class ProgramSymbolsTest {
  static final Path ARRAYS = Path.of("../examples/programs/bin/arrays");

  /** The same source built with other code and data before the arrays (test/c/Makefile). */
  static final Path SHIFTED = Path.of("src/test/c/bin/arrays_shifted");

  static final Path ARRAY_LOADS = Path.of("../examples/acf/array_loads.acf");
  static final Path IN_FUNCTION = Path.of("../examples/acf/array_loads_in_function.acf");

  /** arrays.c: sum_hot reads hot_table 512 x 40 times, pick_hot 10,000 times, nothing else. */
  static final Map<String, Long> KNOWN = Map.of("sum_hot", 20_480L, "pick_hot", 10_000L);

  /** How the productions run; symbols are resolved at load on every path. */
  enum Engine {
    INTERPRETED,
    /** The symbolic set written as a configuration, read back, then bound and interpreted. */
    CONFIG;

    ProfilingEngine create(ProductionSet symbolic, Machine m) throws Exception {
      ProductionSet set = symbolic;
      if (this == CONFIG) {
        set =
            ConfigFormat.fromBytes(
                    ConfigFormat.toBytes(new DeployableConfig("array_loads.acf", symbolic)),
                    "t.dcfg")
                .productions();
        assertThat(set).isEqualTo(symbolic);
        assertThat(set.symbols()).isNotEmpty(); // the file keeps the names, not addresses
      }
      ProductionSet bound = SymbolBinding.bind(set, m.programSymbols(), "arrays");
      assertThat(bound.symbols()).isEmpty();
      return new DiseEngine(bound);
    }
  }

  record Run(Machine machine, ProfilingEngine engine, Machine.Outcome outcome) {
    ProfileTable profile() {
      return engine.sinks().get(0).table(machine.symbols());
    }

    /** Function -> count, checking that every pc is a load of that function. */
    Map<String, Long> loadsByFunction() {
      Map<String, Long> out = new HashMap<>();
      for (List<String> row : profile().rows()) {
        long pc = Long.decode(row.get(0));
        assertThat(machine.cpu().decodedAt(pc).opClass()).isEqualTo(OpClass.LOAD);
        String fn = machine.symbols().lookup(pc).orElseThrow().name();
        assertThat(out.put(fn, Long.parseLong(row.get(2)))).isNull(); // one load pc each
      }
      return out;
    }
  }

  static Machine load(Path program) throws Exception {
    Machine m = TranslatedProductionsTest.quietMachine(program, List.of());
    m.kernel().setStdio(1, null, new ByteArrayOutputStream());
    return m;
  }

  static Run run(Engine kind, ProductionSet symbolic, Path program) throws Exception {
    Machine m = load(program);
    ProfilingEngine e = kind.create(symbolic, m);
    e.install(m.cpu());
    Machine.Outcome o = m.run(-1);
    return new Run(m, e, o);
  }

  static ProductionSet acf(Path file) throws Exception {
    return EngineEndToEndTest.lower(Files.readString(file));
  }

  @ParameterizedTest
  @EnumSource(Engine.class)
  void loadsIntoTheNamedArrayPerLoadPcMatchTheKnownAnswer(Engine kind) throws Exception {
    Run r = run(kind, acf(ARRAY_LOADS), ARRAYS);
    assertThat(r.outcome().reason()).isEqualTo(StopReason.EXITED);
    assertThat(r.loadsByFunction()).isEqualTo(KNOWN);
    assertThat(r.engine().cost().handlerCalls()).isEqualTo(30_480);
  }

  @ParameterizedTest
  @EnumSource(Engine.class)
  void theSameProductionsGiveTheSameAnswerOnABuildWithOtherAddresses(Engine kind) throws Exception {
    ProgramSymbols a = load(ARRAYS).programSymbols();
    ProgramSymbols b = load(SHIFTED).programSymbols();
    assertThat(b.lookup("hot_table").orElseThrow().address())
        .isNotEqualTo(a.lookup("hot_table").orElseThrow().address());
    assertThat(b.lookup("sum_hot").orElseThrow().address())
        .isNotEqualTo(a.lookup("sum_hot").orElseThrow().address());
    assertThat(run(kind, acf(ARRAY_LOADS), SHIFTED).loadsByFunction()).isEqualTo(KNOWN);
  }

  @ParameterizedTest
  @EnumSource(Engine.class)
  void aFunctionRangeInAPatternIsFoldedPerStaticInstruction(Engine kind) throws Exception {
    Run r = run(kind, acf(IN_FUNCTION), ARRAYS);
    assertThat(r.loadsByFunction()).isEqualTo(Map.of("sum_hot", 20_480L));
    // Only sum_hot's load is replaced: no load elsewhere pays for the range test.
    assertThat(r.engine().cost().replacements()).isEqualTo(20_480);
    assertThat(r.engine().cost().insertedInstructions()).isEqualTo(0);
  }

  @ParameterizedTest
  @EnumSource(Engine.class)
  void aSinkParameterTakesASymbol(Engine kind) throws Exception {
    // Every store into hot_table, per store pc: main's fill loop (512) and its rounds (40).
    Run r =
        run(
            kind,
            EngineEndToEndTest.lower(
                "import utilities;\n"
                    + "sink w = watchpoint(address = symbol(hot_table), length = 4096);\n"
                    + "use store_watch_log(handler = w);\n"),
            ARRAYS);
    List<Long> writes = new java.util.ArrayList<>();
    for (List<String> row : r.profile().rows()) {
      assertThat(row.get(1)).isEqualTo("main");
      writes.add(Long.parseLong(row.get(2)));
    }
    assertThat(writes).containsExactly(512L, 40L).inOrder();
  }

  @Test
  void aParameterKeepsTheSymbolAsText() {
    SymbolRef quoted = new SymbolRef("buf.1\"x", true, "a.acf:2:3");
    assertThat(quoted.asParam()).isEqualTo("symbol_end(\"buf.1\\\"x\") at a.acf:2:3");
    assertThat(SymbolRef.fromParam(quoted.asParam())).hasValue(quoted);
    assertThat(SymbolRef.fromParam("symbol(hot_table)"))
        .hasValue(new SymbolRef("hot_table", false, ""));
    assertThat(SymbolRef.fromParam("4096")).isEmpty();
    assertThat(SymbolRef.fromParam("symbol()")).isEmpty();
  }

  @Test
  void symbolsGoThroughAcfParametersIntoLibraryBlocks() throws Exception {
    // store_watchpoint traps the first store into [lo, hi): main's first store to hot_table.
    Run r =
        run(
            Engine.INTERPRETED,
            EngineEndToEndTest.lower(
                "import utilities;\n"
                    + "use store_watchpoint(lo = symbol(hot_table), hi = symbol_end(hot_table));\n"),
            ARRAYS);
    assertThat(r.outcome().reason()).isEqualTo(StopReason.FAULT);
    long pc = r.machine().cpu().fault().pc();
    assertThat(r.machine().symbols().lookup(pc).orElseThrow().name()).isEqualTo("main");
    assertThat(r.machine().cpu().decodedAt(pc).opClass()).isEqualTo(OpClass.STORE);
    ProgramSymbols.Entry hot = r.machine().programSymbols().lookup("hot_table").orElseThrow();
    assertThat(hot.size()).isEqualTo(512 * 8);
    assertThat(hot.kind()).isEqualTo(ProgramSymbols.Kind.OBJECT);
  }

  @Test
  void aSymbolTheProgramLacksIsAnErrorAtItsLineAndColumnWhenTheProgramIsLoaded() throws Exception {
    ProductionSet set =
        EngineEndToEndTest.lower(
            "sink s = region_counter();\n"
                + "P: T.OPCLASS == load && T.PC >= symbol(sum_hto) => R, null\n"
                + "R: li $dr0, symbol_end(no_such_thing); call(s, T.PC); T.INSN;\n");
    // Compiling needs no program: the names stay symbolic until one is loaded.
    assertThat(set.symbols())
        .containsExactly(
            new SymbolRef("sum_hto", false, "test.acf:2:33"),
            new SymbolRef("no_such_thing", true, "test.acf:3:13"));
    Machine m = load(ARRAYS);
    SymbolBinding.UnresolvedSymbolsException e =
        assertThrows(
            SymbolBinding.UnresolvedSymbolsException.class,
            () -> SymbolBinding.bind(set, m.programSymbols(), "bin/arrays"));
    assertThat(e.problems())
        .containsExactly(
            "test.acf:2:33: error: bin/arrays has no symbol `sum_hto`\n"
                + "  hint: did you mean `sum_hot`?",
            "test.acf:3:13: error: bin/arrays has no symbol `no_such_thing`")
        .inOrder();
    // An engine refuses a set whose replacement code names a symbol not resolved rather than
    // guess; a pattern's symbol may wait for a library that defines it (bindDeferring), and until
    // one does, its production matches nothing and the engine says the symbol is unbound.
    IllegalArgumentException unbound =
        assertThrows(IllegalArgumentException.class, () -> new DiseEngine(set));
    assertThat(unbound).hasMessageThat().contains("symbol_end(no_such_thing)");
    ProductionSet patternOnly =
        EngineEndToEndTest.lower(
            "sink s = region_counter();\n"
                + "P: T.OPCLASS == load && T.PC >= symbol(sum_hto) => R, null\n"
                + "R: call(s, T.PC); T.INSN;\n");
    DiseEngine waiting = new DiseEngine(patternOnly);
    waiting.install(m.cpu());
    assertThat(waiting.unbound()).containsExactly(new SymbolRef("sum_hto", false, "test.acf:2:33"));
  }

  @Test
  void symbolEndOfASymbolWithoutSizeIsRefused() {
    ProgramSymbols syms =
        new ProgramSymbols(
            List.of(
                new ProgramSymbols.Entry("marker", 0x1000, 0, ProgramSymbols.Kind.NOTYPE, true),
                new ProgramSymbols.Entry("twin", 0x2000, 8, ProgramSymbols.Kind.OBJECT, false),
                new ProgramSymbols.Entry("twin", 0x3000, 8, ProgramSymbols.Kind.OBJECT, false)));
    assertThat(SymbolBinding.address(new SymbolRef("marker", false, ""), syms)).hasValue(0x1000L);
    assertThat(
            SymbolBinding.explain(new SymbolRef("marker", true, "a.acf:1:1"), syms, "p")
                .orElseThrow()
                .render())
        .isEqualTo(
            "a.acf:1:1: error: `marker` has no size in p's"
                + " symbol table, so symbol_end(marker) is not known\n"
                + "  hint: use symbol(marker) and a length you know");
    assertThat(
            SymbolBinding.explain(new SymbolRef("twin", false, ""), syms, "p")
                .orElseThrow()
                .message())
        .isEqualTo(
            "p has 2 local symbols called `twin` (at 0x2000,"
                + " 0x3000), so symbol(twin) is ambiguous");
  }
}
