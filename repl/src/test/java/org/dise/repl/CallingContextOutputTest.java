package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import com.google.perftools.profiles.ProfileProto;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.dise.repl.ConfigCommandTest.Result;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The calling-context profile end to end: {@code acf run --acf} with {@code use calling_context;}
 * on examples/programs/callstack.c, whose stacks are known from its source, and the files {@code
 * --out} writes: folded stacks, pprof (decoded with protobuf-java's code for the official
 * profile.proto) and callgrind.
 */
class CallingContextOutputTest {
  static final Path PROGRAM = ConfigCommandTest.ROOT.resolve("examples/programs/bin/callstack");
  static final String PREFIX = "_start;__libc_start_main;__libc_start_call_main;main;";

  @TempDir static Path tmp;
  static Path out;
  static Result run;

  @BeforeAll
  static void runIt() throws Exception {
    Path acf = tmp.resolve("cc.acf");
    Files.writeString(acf, "import profiles;\nuse calling_context;\nuse hot_call_pairs;\n");
    out = tmp.resolve("out");
    run = ConfigCommandTest.runInto(acf.toString(), out, PROGRAM.toString());
  }

  /** Folded stacks (instructions) by stack. */
  static Map<String, Long> folded(String file) throws Exception {
    Map<String, Long> m = new HashMap<>();
    for (String line : Files.readAllLines(out.resolve(file))) {
      int sp = line.lastIndexOf(' ');
      m.put(line.substring(0, sp), Long.parseLong(line.substring(sp + 1)));
    }
    return m;
  }

  /** Runs {@code acf} on {@code program} with {@code extra} options into a new folder. */
  static Path profile(String name, String acfText, Path program, String... extra) throws Exception {
    Path acf = tmp.resolve(name + ".acf");
    Files.writeString(acf, acfText);
    Path dir = tmp.resolve(name);
    List<String> args = new java.util.ArrayList<>(List.of("run", "--acf", acf.toString()));
    args.addAll(List.of(extra));
    args.addAll(List.of("--out", dir.toString(), program.toString()));
    Result r = ConfigCommandTest.acf(args.toArray(String[]::new));
    assertWithMessage(r.stderr()).that(r.status()).isEqualTo(0);
    Files.writeString(dir.resolve("stderr.txt"), r.stderr());
    return dir;
  }

  static final String SAMPLED_ACF =
      "import profiles;\nimport sampling;\nuse external_trigger;\n"
          + "sink cc = calling_context(cost = 40%s);\nuse calling_context(handler = cc);\n";

  /** The count error of profile cc between an exhaustive run and a sampled one (estimate). */
  static double countError(Path exhaustive, Path sampled) throws Exception {
    Result r =
        ConfigCommandTest.acf(
            "compare", "--format", "json", exhaustive.toString(), sampled.toString());
    assertWithMessage(r.stderr()).that(r.status()).isEqualTo(0);
    com.fasterxml.jackson.databind.JsonNode json =
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.stdout());
    for (com.fasterxml.jackson.databind.JsonNode p : json.get("profiles")) {
      if (p.get("profile").asText().equals("cc")) {
        return p.get("count_error").asDouble();
      }
    }
    throw new AssertionError("no profile cc in " + r.stdout());
  }

  /**
   * Issue 32, finding 1: a sampled calling-context profile put 56% of the instructions under a
   * stack without main, because its shadow stack started stale at every sampled interval. Each
   * interval's stack is now unwound from the guest (libc's .eh_frame, prologue analysis for
   * callstack's own functions, which gcc 12 builds without CFI; recurse's .debug_frame), so the
   * sampled estimate is within a few percent of the exhaustive profile, with main under every stack
   * of the program's own work.
   */
  @Test
  void sampledStacksAreUnwoundAndMatchTheExhaustiveProfile() throws Exception {
    Path recurse = ConfigCommandTest.ROOT.resolve("integration-tests/src/test/c/bin/recurse");
    for (Path program : List.of(PROGRAM, recurse)) {
      String n = program.getFileName().toString();
      Path all = profile(n + "-all", String.format(SAMPLED_ACF, ""), program);
      Path sampled =
          profile(
              n + "-sampled",
              String.format(SAMPLED_ACF, ""),
              program,
              "--sampling",
              "periodic:2",
              "--interval",
              "1K");
      assertWithMessage(n).that(countError(all, sampled)).isLessThan(0.05);
      String stderr = Files.readString(sampled.resolve("stderr.txt"));
      assertThat(stderr).containsMatch("the stack at each of \\d+ sampled intervals");
      assertThat(stderr).contains(" 0 incomplete");
      assertThat(stderr).doesNotContain("WARNING");
      List<String> own = List.of(";work", ";leaf", ";fib", ";even", ";odd");
      for (String line : Files.readAllLines(sampled.resolve("cc.folded"))) {
        String stack = line.substring(0, line.lastIndexOf(' '));
        if (own.stream().anyMatch(stack::endsWith)) {
          assertWithMessage(n).that(stack).startsWith(PREFIX);
        }
      }
      // Without unwinding (the stale shadow stack), the same sample is far off and says so.
      Path stale =
          profile(
              n + "-stale",
              String.format(SAMPLED_ACF, ", unwind = false"),
              program,
              "--sampling",
              "periodic:2",
              "--interval",
              "1K");
      assertWithMessage(n).that(countError(all, stale)).isGreaterThan(0.2);
      assertThat(Files.readString(stale.resolve("stderr.txt"))).contains("WARNING: sampled run");
    }
    assertThat(run.stderr()).doesNotContain("sampled run");
  }

  @Test
  void foldedStacksAreTheSourcesStacksWeightedByInstructions() throws Exception {
    assertThat(run.status()).isEqualTo(0);
    Map<String, Long> f = folded("CallingContext.folded");
    long outer = f.get(PREFIX + "outer;inner;work");
    long direct = f.get(PREFIX + "direct;work");
    long tail = f.get(PREFIX + "work"); // tail() tail-called work: its frame was replaced
    long after = f.get(PREFIX + "after;work"); // after the longjmp: deep's frames are gone
    long deep = f.get(PREFIX + "deep;deep;deep;deep;work");
    // work(n) costs the same per iteration wherever it is called from: 10 x 3000, 10 x 1000,
    // 10 x 2000, 5 x 700 and 1 x 500 iterations.
    double perIteration = direct / 10_000.0;
    assertThat(outer / perIteration).isWithin(30).of(30_000);
    assertThat(tail / perIteration).isWithin(30).of(20_000);
    assertThat(after / perIteration).isWithin(30).of(3_500);
    assertThat(deep / perIteration).isWithin(30).of(500);
    assertThat(f.keySet().stream().filter(k -> k.contains("tail;work"))).isEmpty();
    assertThat(f.keySet().stream().filter(k -> k.contains("deep;after"))).isEmpty();
    // Every application instruction after the first call is charged to some stack.
    long total = f.values().stream().mapToLong(Long::longValue).sum();
    String summary = Files.readString(out.resolve("summary.json"));
    long app =
        Long.parseLong(summary.replaceAll("(?s).*\"application_instructions\": (\\d+).*", "$1"));
    assertThat(total).isAtMost(app);
    assertThat(total).isAtLeast(app - 20);
    // Cycles include the handler's 40 cycles per recorded event, so they exceed instructions.
    Map<String, Long> cycles = folded("CallingContext.cycles.folded");
    assertThat(cycles.get(PREFIX + "outer;inner;work")).isAtLeast(outer);
    assertThat(run.stderr()).contains("frames were unwound");
  }

  static ProfileProto.Profile pprof(String file) throws Exception {
    try (InputStream in = new GZIPInputStream(Files.newInputStream(out.resolve(file)))) {
      return ProfileProto.Profile.parseFrom(in);
    }
  }

  /** Each sample's stack, root first, as function names joined by ';', with its values. */
  static Map<String, List<Long>> samples(ProfileProto.Profile p) {
    Map<Long, String> functions = new HashMap<>();
    p.getFunctionList().forEach(f -> functions.put(f.getId(), p.getStringTable((int) f.getName())));
    Map<Long, String> locations = new HashMap<>();
    p.getLocationList()
        .forEach(l -> locations.put(l.getId(), functions.get(l.getLine(0).getFunctionId())));
    Map<String, List<Long>> m = new HashMap<>();
    for (ProfileProto.Sample s : p.getSampleList()) {
      StringBuilder sb = new StringBuilder();
      for (int i = s.getLocationIdCount() - 1; i >= 0; i--) { // pprof: the leaf first
        sb.append(locations.get(s.getLocationId(i))).append(i == 0 ? "" : ";");
      }
      m.put(sb.toString(), s.getValueList());
    }
    return m;
  }

  @Test
  void pprofDecodesWithTheOfficialSchemaToTheSameStacks() throws Exception {
    ProfileProto.Profile p = pprof("CallingContext.pb.gz");
    assertThat(p.getStringTable(0)).isEmpty();
    assertThat(
            p.getSampleTypeList().stream()
                .map(
                    t ->
                        p.getStringTable((int) t.getType())
                            + "/"
                            + p.getStringTable((int) t.getUnit()))
                .toList())
        .containsExactly("instructions/count", "cycles/count")
        .inOrder();
    Map<String, List<Long>> samples = samples(p);
    Map<String, Long> folded = folded("CallingContext.folded");
    for (String stack : List.of("outer;inner;work", "direct;work", "work", "after;work")) {
      List<Long> v = samples.get(PREFIX + stack);
      assertThat(v).hasSize(2);
      assertThat(v.get(0)).isEqualTo(folded.get(PREFIX + stack));
      assertThat(v.get(1)).isAtLeast(v.get(0));
    }
    // Locations are the functions' entries from the ELF symbols.
    ProfileProto.Function work =
        p.getFunctionList().stream()
            .filter(f -> p.getStringTable((int) f.getName()).equals("work"))
            .findFirst()
            .get();
    ProfileProto.Location loc =
        p.getLocationList().stream()
            .filter(l -> l.getLine(0).getFunctionId() == work.getId())
            .findFirst()
            .get();
    assertThat(loc.getAddress())
        .isEqualTo(
            Long.parseLong(
                ConfigCommandTest.acf("disasm", PROGRAM.toString(), "-f", "work")
                    .stdout()
                    .lines()
                    .filter(l -> l.matches("\\s*[0-9a-f]+:.*"))
                    .findFirst()
                    .get()
                    .trim()
                    .split(":")[0],
                16));
  }

  @Test
  void callPairsAlsoGetPprof() throws Exception {
    ProfileProto.Profile p = pprof("CallPair_handler.pb.gz");
    assertThat(p.getStringTable((int) p.getSampleType(0).getType())).isEqualTo("calls");
    Map<String, List<Long>> samples = samples(p);
    assertThat(samples.get("main;outer")).containsExactly(10L);
    assertThat(samples.get("outer;inner")).containsExactly(10L);
    assertThat(samples.get("main;tail")).containsExactly(10L);
  }

  @Test
  void callgrindHasSelfCostsAndCallEdges() throws Exception {
    List<String> lines = Files.readAllLines(out.resolve("callgrind.out.CallingContext"));
    assertThat(lines.get(0)).isEqualTo("# callgrind format");
    assertThat(lines).contains("events: Ir Cycles");
    // inner calls work 10 times; the edge's inclusive cost is the outer;inner;work stack's.
    int inner = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith("fn=") && isInner(lines, i)) {
        inner = i;
        break;
      }
    }
    assertThat(inner).isAtLeast(0);
    int cfn = inner + 2;
    assertThat(lines.get(cfn)).matches("cfn=\\(\\d+\\)( work)?");
    assertThat(lines.get(cfn + 1)).isEqualTo("calls=10 0");
    long incl = Long.parseLong(lines.get(cfn + 2).split(" ")[1]);
    assertThat(incl).isEqualTo(folded("CallingContext.folded").get(PREFIX + "outer;inner;work"));
  }

  @Test
  void callgrindAnnotateReadsIt() throws Exception {
    if (!Files.isExecutable(Path.of("/usr/bin/callgrind_annotate"))) {
      System.out.println("skipped: callgrind_annotate is not installed (Debian package valgrind)");
      return;
    }
    Process p =
        new ProcessBuilder(
                "callgrind_annotate", out.resolve("callgrind.out.CallingContext").toString())
            .redirectErrorStream(true)
            .start();
    String text = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).isEqualTo(0);
    long self =
        folded("CallingContext.folded").entrySet().stream()
            .filter(e -> e.getKey().endsWith(";work"))
            .mapToLong(Map.Entry::getValue)
            .sum();
    assertThat(text).containsMatch(String.format("%,d \\([ 0-9.]+%%\\) .*\\?\\?\\?:work", self));
    assertThat(text).doesNotContain("uninitialized");
  }

  /** Whether fn= at line i is inner's (a compressed name refers to its first definition). */
  private static boolean isInner(List<String> lines, int i) {
    String id = lines.get(i).replaceAll("fn=(\\(\\d+\\)).*", "$1");
    return lines.stream().anyMatch(l -> l.endsWith(id + " inner"));
  }
}
