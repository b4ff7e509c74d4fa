package org.dise.repl.lsp;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.dise.compiler.Frontend;
import org.dise.compiler.diag.Diagnostic;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.format.Formatter;
import org.dise.compiler.parse.AcfParsing;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code acf lsp} driven as an editor drives it: a JVM of its own, JSON-RPC over its stdin and
 * stdout, real protocol messages in, real messages out.
 */
class LanguageServerTest {
  static final Path ROOT = RepositoryRoot.path();

  // One server for the class, as an editor keeps one: a JVM start per test would be slow.
  @TempDir static Path tmp;
  private static LspClient client;
  private static int documents;
  private String uri;
  private Path file;

  @BeforeAll
  static void startServer() throws Exception {
    client = new LspClient(ROOT, tmp.resolve("cache"));
    JsonNode caps = client.initialize(Map.of());
    assertThat(caps.path("capabilities").path("textDocumentSync").asInt()).isEqualTo(1);
  }

  @AfterAll
  static void shutdownServer() throws Exception {
    try {
      assertWithMessage("exit status after shutdown and exit").that(client.shutdown()).isEqualTo(0);
    } finally {
      client.close();
    }
  }

  @BeforeEach
  void newDocument() {
    file = tmp.resolve("work" + (++documents) + ".acf");
    uri = file.toUri().toString();
  }

  private static final String BROKEN =
      String.join(
          "\n",
          "import profiles;",
          "use hot_methods;",
          "P1: T.OPCLAS == branch => R1, null",
          "R1: call(Branch_handler, T.INSN); T.INSN;",
          "");

  @Test
  void diagnosticsAreAcfChecksAndFollowTheEdits() throws Exception {
    client.open(uri, BROKEN);
    JsonNode published = client.notification("textDocument/publishDiagnostics");
    assertThat(published.get("uri").asText()).isEqualTo(uri);
    JsonNode first = published.get("diagnostics").get(0);
    // `T.OPCLAS` is on line 3 (0-based 2), columns 5..12 (0-based 4..12).
    assertThat(first.at("/range/start/line").asInt()).isEqualTo(2);
    assertThat(first.at("/range/start/character").asInt()).isEqualTo(4);
    assertThat(first.at("/range/end/line").asInt()).isEqualTo(2);
    assertThat(first.at("/range/end/character").asInt()).isEqualTo(12);
    assertThat(first.get("severity").asInt()).isEqualTo(1);
    assertThat(first.get("source").asText()).isEqualTo("acf");
    // The same messages and hints as acf check's front end, in the same order.
    Frontend.Result check =
        Frontend.standard().check(new SourceFile(file.toString(), BROKEN), file);
    List<String> expected = new ArrayList<>();
    for (Diagnostic d : check.diagnostics().sorted()) {
      expected.add(d.hint() == null ? d.message() : d.message() + "\nhint: " + d.hint());
    }
    List<String> got = new ArrayList<>();
    published.get("diagnostics").forEach(d -> got.add(d.get("message").asText()));
    assertThat(got).containsExactlyElementsIn(expected).inOrder();
    assertThat(got.get(0))
        .isEqualTo("unknown instruction field `T.OPCLAS`\nhint: did you mean `T.OPCLASS`?");

    client.change(uri, 2, BROKEN.replace("T.OPCLAS ", "T.OPCLASS "));
    JsonNode fixed = client.notification("textDocument/publishDiagnostics");
    assertThat(fixed.get("diagnostics").size()).isEqualTo(0);

    // A syntax error mid-typing: the parser's message at the token, then fixed again.
    client.change(uri, 3, BROKEN.replace("T.OPCLAS ==", "T.OPCLASS == =="));
    JsonNode syntax = client.notification("textDocument/publishDiagnostics");
    assertThat(syntax.get("diagnostics").size()).isAtLeast(1);
    assertThat(syntax.at("/diagnostics/0/range/start/line").asInt()).isEqualTo(2);
  }

  @Test
  void completionAfterTDotGivesTheFields() throws Exception {
    client.open(uri, "P1: T. == branch => null, null\n");
    JsonNode items =
        client.request("textDocument/completion", LspClient.at(uri, 0, 6)).get("items");
    List<String> labels = labels(items);
    assertThat(labels).containsAtLeast("OP", "OPCLASS", "PC", "TARGET", "RS1", "RD", "IMM", "INSN");
    assertThat(labels).doesNotContain("add");
  }

  @Test
  void completionAfterAnOpcodeClassComparisonGivesTheClassesOnly() throws Exception {
    // Issue 32: 268 items starting with sinks were offered here.
    client.open(uri, "P1: T.OPCLASS == \nP2: T.OP != \n");
    List<String> classes =
        labels(client.request("textDocument/completion", LspClient.at(uri, 0, 17)).get("items"));
    assertThat(classes).containsAtLeast("branch", "proc_call", "load", "store", "codeword");
    assertThat(classes).doesNotContain("CallPair_handler");
    assertThat(classes).doesNotContain("add");
    assertThat(classes.size()).isLessThan(20);
    List<String> ops =
        labels(client.request("textDocument/completion", LspClient.at(uri, 1, 12)).get("items"));
    assertThat(ops).containsAtLeast("add", "c.addi", "on_trig_inst");
    assertThat(ops).doesNotContain("branch");
  }

  @Test
  void completionKnowsModulesBlocksParametersComponentsSinksAndSymbols() throws Exception {
    // The program comes from the workspace settings, as an editor sends them.
    client.notify(
        "workspace/didChangeConfiguration",
        Map.of(
            "settings",
            Map.of(
                "acf", Map.of("program", ROOT.resolve("examples/programs/bin/jpeg").toString()))));
    String text =
        String.join(
            "\n",
            "import ",
            "import profiles;",
            "use ",
            "use hot_methods(",
            "sink mine = ",
            "sink other = rap_tree(",
            "R1: call(",
            "P9: T.PC == symbol(",
            "");
    client.open(uri, text);
    assertThat(labels(complete(0, 7))).containsAtLeast("profiles", "sampling", "rap");
    assertThat(labels(complete(2, 4))).containsAtLeast("hot_methods", "hot_call_pairs");
    assertThat(labels(complete(3, 16))).containsExactly("handler", "flag");
    assertThat(labels(complete(4, 12))).containsAtLeast("region_counter", "rap_tree");
    assertThat(labels(complete(4, 12))).doesNotContain("periodic");
    assertThat(labels(complete(5, 22))).containsAtLeast("epsilon_ppm", "stream", "cost");
    assertThat(labels(complete(6, 9)))
        .containsAtLeast("HotMethod_handler", "CallPair_handler", "BasicBlockVectors");
    assertThat(labels(complete(7, 19))).contains("main");
  }

  @Test
  void hoverShowsALibraryBlockAndAFieldWithThePapersSection() throws Exception {
    client.open(uri, "import profiles;\nuse hot_methods;\nP1: T.TARGET != 0 => null, inc_0\n");
    JsonNode block = hover(1, 6);
    String md = block.at("/contents/value").asText();
    assertThat(md)
        .contains("acf hot_methods(handler: sink = HotMethod_handler, flag: counter" + " = 0)");
    assertThat(md).contains("Fig. 6 P2 and Section 3.5");
    assertThat(block.at("/range/start/character").asInt()).isEqualTo(4);
    JsonNode field = hover(2, 7);
    assertThat(field.at("/contents/value").asText()).contains("target of a direct branch");
    assertThat(field.at("/contents/value").asText()).contains("§3.1");
    JsonNode flag = hover(2, 31);
    assertThat(flag.at("/contents/value").asText()).contains("increments counter 0 (§3.3)");
  }

  @Test
  void definitionGoesIntoTheStandardLibraryAndWithinTheFile() throws Exception {
    String text =
        "import profiles;\nuse hot_methods;\nP1: T.PC == 0 => R1, null\n"
            + "R1: call(Branch_handler, T.INSN); T.INSN;\n";
    client.open(uri, text);
    JsonNode block = definition(1, 8);
    Path lib = Path.of(URI.create(block.get("uri").asText()));
    assertThat(lib.getFileName().toString()).isEqualTo("profiles.acf");
    String line = Files.readAllLines(lib).get(block.at("/range/start/line").asInt());
    assertThat(line).startsWith("acf hot_methods(");
    assertThat(line.substring(block.at("/range/start/character").asInt()))
        .startsWith("hot_methods");
    JsonNode module = definition(0, 10);
    assertThat(module.get("uri").asText()).isEqualTo(block.get("uri").asText());
    JsonNode repl = definition(2, 18);
    assertThat(repl.get("uri").asText()).isEqualTo(uri);
    assertThat(repl.at("/range/start/line").asInt()).isEqualTo(3);
    JsonNode sink = definition(3, 12);
    assertThat(sink.get("uri").asText()).endsWith("prelude.acf");
  }

  @Test
  void outlineAndFormattingThroughAcfFmt() throws Exception {
    String text =
        "acf pairs(h: sink = CallPair_handler) {\n  P3: t.opclass == proc_call"
            + " -> null, R3\n  R3: call(h, t.insn); t.insn\n}\nuse pairs;\n";
    client.open(uri, text);
    JsonNode symbols =
        client.request("textDocument/documentSymbol", Map.of("textDocument", Map.of("uri", uri)));
    assertThat(symbols.get(0).get("name").asText()).isEqualTo("pairs");
    assertThat(labelsOf(symbols.get(0).get("children"), "name"))
        .containsExactly("P3", "R3")
        .inOrder();
    assertThat(symbols.get(1).get("detail").asText()).isEqualTo("use");
    JsonNode edits =
        client.request(
            "textDocument/formatting",
            Map.of(
                "textDocument",
                Map.of("uri", uri),
                "options",
                Map.of("tabSize", 4, "insertSpaces", true)));
    String expected =
        Formatter.format(
            AcfParsing.parse(new SourceFile("x", text), new Diagnostics()).orElseThrow());
    assertThat(edits.size()).isEqualTo(1);
    assertThat(edits.get(0).get("newText").asText()).isEqualTo(expected);
    assertWithMessage("the edit replaces the whole text")
        .that(edits.get(0).at("/range/end/line").asInt())
        .isEqualTo(5);
  }

  private JsonNode hover(int line, int character) throws Exception {
    return client.request("textDocument/hover", LspClient.at(uri, line, character));
  }

  /** The first place textDocument/definition names for the name at (line, character). */
  private JsonNode definition(int line, int character) throws Exception {
    return client.request("textDocument/definition", LspClient.at(uri, line, character)).get(0);
  }

  private JsonNode complete(int line, int character) throws Exception {
    return client
        .request("textDocument/completion", LspClient.at(uri, line, character))
        .get("items");
  }

  private static List<String> labels(JsonNode items) {
    return labelsOf(items, "label");
  }

  private static List<String> labelsOf(JsonNode items, String key) {
    List<String> out = new ArrayList<>();
    items.forEach(i -> out.add(i.get(key).asText()));
    return out;
  }
}
