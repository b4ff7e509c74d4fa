package org.dise.repl;

import static com.google.common.truth.Truth.assertWithMessage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.dise.testsupport.Captured;
import org.dise.testsupport.FixedLengthRoot;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Docs that cannot drift (issue 32): every {@code <!-- doctest -->} block of README.md, docs/ and
 * spec/ runs its {@code acf} commands in-process and compares what they print with what the doc
 * shows; {@code -Dacf.updateDocs=true} writes the printed output back instead, keeping the doc's
 * elisions where they still fit. The convention is in docs/README.md.
 *
 * <p>Commands run from a copy of the repository under a path of fixed length ({@link
 * FixedLengthRoot}, whose prefix is as long as the one the tutorial's figures were first taken
 * with), since a guest's start-up reads its own path and instruction totals move with it: relative
 * paths in a command name files there, files a command writes land there, and that root prints as
 * nothing (so {@code acf: wrote out/x.csv} reads as in the doc). Each file's commands share one
 * such root, in order.
 */
class DocsTest {
  /** Same length as "acf-tutorial", the prefix the tutorial's figures were first taken with. */
  private static final String PREFIX = "acf-doctests";

  /** Options whose value is a file the command writes (resolved in the root even if absent). */
  private static final Set<String> OUTPUTS = Set.of("-o", "--out", "--output");

  static final boolean UPDATE = Boolean.getBoolean("acf.updateDocs");

  /** README.md, docs/*.md and spec/*.md: the files a reader runs commands from. */
  static List<Path> files() throws IOException {
    List<Path> files = new ArrayList<>();
    files.add(RepositoryRoot.resolve("README.md"));
    for (String dir : List.of("docs", "spec")) {
      try (Stream<Path> s = Files.list(RepositoryRoot.resolve(dir))) {
        s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
      }
    }
    return files;
  }

  @TestFactory
  Stream<DynamicNode> everyMarkedCommandPrintsWhatTheDocShows() throws IOException {
    List<DynamicNode> nodes = new ArrayList<>();
    for (Path file : files()) {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      String name = RepositoryRoot.path().relativize(file).toString();
      List<DocBlock> blocks = DocBlock.parse(name, lines);
      if (blocks.isEmpty()) {
        continue;
      }
      nodes.add(DynamicContainer.dynamicContainer(name, fileTests(file, name, lines, blocks)));
    }
    assertWithMessage("doctest blocks in README.md, docs/ and spec/").that(nodes).isNotEmpty();
    return nodes.stream();
  }

  private static Stream<DynamicNode> fileTests(
      Path file, String name, List<String> lines, List<DocBlock> blocks) {
    Path[] root = new Path[1];
    Map<DocBlock.Command, List<String>> merged = new java.util.IdentityHashMap<>();
    List<DynamicNode> tests = new ArrayList<>();
    for (DocBlock b : blocks) {
      tests.add(
          DynamicTest.dynamicTest(
              name + ":" + (b.open() + 1),
              () -> {
                for (String tool : b.options().needs()) {
                  String why = org.dise.testsupport.ExternalTool.missing(tool, "--version");
                  if (why != null) {
                    System.out.println(
                        "DocsTest: skipped " + name + ":" + (b.open() + 1) + ": " + why);
                  }
                  org.junit.jupiter.api.Assumptions.assumeTrue(why == null, why);
                }
                if (root[0] == null) {
                  root[0] =
                      FixedLengthRoot.create(
                          PREFIX, "examples/programs/bin", "integration-tests/src/test/c/bin");
                }
                StringBuilder failures = new StringBuilder();
                for (DocBlock.Command c : b.commands()) {
                  List<String> printed = run(root[0], b.options(), c, name, b.open());
                  DocOutput.Merge m = DocOutput.merge(c.output(), printed);
                  merged.put(c, m.lines());
                  if (m.changes() > 0) {
                    failures.append(
                        String.format(
                            "%s:%d: $ %s%n--- the doc shows%n%s%n--- the command printed%n%s%n",
                            name,
                            b.open() + 2,
                            c.text(),
                            String.join("\n", c.output()),
                            String.join("\n", printed)));
                  }
                }
                if (!UPDATE && failures.length() > 0) {
                  throw new AssertionError(
                      failures
                          + "(refresh with ./mvnw -pl repl test -Dtest=DocsTest"
                          + " -Dacf.updateDocs=true)");
                }
              }));
    }
    tests.add(
        DynamicTest.dynamicTest(
            name + ": done",
            () -> {
              if (root[0] != null) {
                FixedLengthRoot.remove(root[0]);
              }
              if (UPDATE) {
                rewrite(file, lines, blocks, merged);
              }
            }));
    return tests.stream();
  }

  /** Runs one command; the lines it printed on the block's streams, paths made relative. */
  private static List<String> run(
      Path root, DocBlock.Options options, DocBlock.Command c, String file, int at) {
    List<String> words = DocBlock.words(c.text());
    if (words.isEmpty() || !(words.get(0).equals("./acf") || words.get(0).equals("acf"))) {
      throw new IllegalArgumentException(
          file + ":" + (at + 2) + ": a doctest runs acf commands only: " + c.text());
    }
    List<String> args = new ArrayList<>();
    for (int i = 1; i < words.size(); i++) {
      String w = words.get(i);
      boolean output = OUTPUTS.contains(words.get(i - 1));
      if (!w.startsWith("-") && (output || Files.exists(root.resolve(w)))) {
        w = root.resolve(w).toString();
      }
      args.add(w);
    }
    Captured r =
        options.process()
            ? process(root, words.subList(1, words.size()))
            : Captured.run(() -> Cli.commandLine().execute(args.toArray(String[]::new)));
    assertWithMessage(file + ":" + (at + 2) + ": exit status of $ " + c.text() + "\n" + r.stderr())
        .that(r.status())
        .isEqualTo(options.status());
    StringBuilder text = new StringBuilder();
    for (String s : options.streams()) {
      text.append(s.equals("stdout") ? r.stdout() : r.stderr());
    }
    String t = text.toString();
    for (Path p : List.of(root, RepositoryRoot.path())) {
      t = t.replace(p + "/", "").replace(p.toString(), ".");
    }
    List<String> printed = new ArrayList<>(t.lines().map(String::stripTrailing).toList());
    while (!printed.isEmpty() && printed.get(printed.size() - 1).isEmpty()) {
      printed.remove(printed.size() - 1);
    }
    return printed;
  }

  /**
   * Runs {@code args} as {@code acf} in a fresh JVM on this test's class path, from {@code root}:
   * relative paths then mean what they mean to a user at the repository's top.
   */
  private static Captured process(Path root, List<String> args) {
    List<String> cmd = AcfJvm.command(List.of("-Xss16m", "-XX:TieredStopAtLevel=1"));
    cmd.addAll(args);
    try {
      return Captured.process(cmd, root, 300);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Writes the file back with each block's outputs replaced by the merged ones. */
  private static void rewrite(
      Path file,
      List<String> lines,
      List<DocBlock> blocks,
      Map<DocBlock.Command, List<String>> merged)
      throws IOException {
    List<String> out = new ArrayList<>();
    int next = 0;
    for (DocBlock b : blocks) {
      out.addAll(lines.subList(next, b.open() + 1));
      for (DocBlock.Command c : b.commands()) {
        out.addAll(c.commandLines());
        out.addAll(merged.getOrDefault(c, c.output()));
      }
      next = b.close();
    }
    out.addAll(lines.subList(next, lines.size()));
    String text = String.join("\n", out) + "\n";
    if (!text.equals(Files.readString(file, StandardCharsets.UTF_8))) {
      Files.writeString(file, text, StandardCharsets.UTF_8);
      System.err.println("acf.updateDocs: rewrote " + file);
    }
  }
}
