package org.dise.repl.editors;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.Token;
import org.dise.grammar.AcfLexer;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;

/**
 * The editors' TextMate grammar ({@code editors/vscode/syntaxes/acf.tmLanguage.json}) against the
 * language's own lexer: every {@code .acf} in the repository tokenises with every region closed, a
 * character is marked invalid exactly where the ANTLR lexer finds a bad character, and each kind of
 * token (fields, numbers, keywords, flags, arrows, comments, strings...) gets the scope an editor
 * colours it by.
 */
class TextMateGrammarTest {
  static final Path ROOT = RepositoryRoot.path();
  static final Path GRAMMAR = ROOT.resolve("editors/vscode/syntaxes/acf.tmLanguage.json");

  /** The scope each token type must have (a prefix of one of the character's scopes). */
  static final Map<Integer, String> EXPECTED =
      Map.ofEntries(
          Map.entry(AcfLexer.FIELD, "variable.language.field"),
          Map.entry(AcfLexer.TINSN, "variable.language.insn"),
          Map.entry(AcfLexer.NUMBER, "constant.numeric"),
          Map.entry(AcfLexer.FLAG, "support.function.hps"),
          Map.entry(AcfLexer.MICRO_OP, "support.function.hps"),
          Map.entry(AcfLexer.ARROW, "keyword.operator.arrow"),
          Map.entry(AcfLexer.LINE_COMMENT, "comment.line"),
          Map.entry(AcfLexer.BLOCK_COMMENT, "comment.block"),
          Map.entry(AcfLexer.STRING, "string.quoted"),
          Map.entry(AcfLexer.DOLLAR_NAME, "variable.other.dise-register"),
          Map.entry(AcfLexer.LABEL, "entity.name.label"),
          Map.entry(AcfLexer.IMPORT, "keyword.control"),
          Map.entry(AcfLexer.ACF, "keyword.control"),
          Map.entry(AcfLexer.USE, "keyword.control"),
          Map.entry(AcfLexer.CONST, "keyword.control"),
          Map.entry(AcfLexer.REGISTER, "keyword.control"),
          Map.entry(AcfLexer.SINK, "keyword.control"),
          Map.entry(AcfLexer.TRIGGER, "keyword.control"),
          Map.entry(AcfLexer.CALL, "keyword.other"),
          Map.entry(AcfLexer.NULL, "constant.language"),
          Map.entry(AcfLexer.TRUE, "constant.language"),
          Map.entry(AcfLexer.FALSE, "constant.language"),
          Map.entry(AcfLexer.AND, "keyword.operator"),
          Map.entry(AcfLexer.OR, "keyword.operator"),
          Map.entry(AcfLexer.EQ, "keyword.operator"),
          Map.entry(AcfLexer.SEMI, "punctuation"),
          Map.entry(AcfLexer.LPAREN, "punctuation"),
          Map.entry(AcfLexer.ERROR_CHAR, "invalid.illegal"));

  static List<Path> acfFiles() throws IOException {
    try (Stream<Path> s = Files.walk(ROOT)) {
      return s.filter(p -> p.toString().endsWith(".acf"))
          .filter(
              p -> {
                String rel = ROOT.relativize(p).toString();
                return !rel.contains("/target/")
                    && !rel.startsWith("target/")
                    && !rel.startsWith(".git")
                    && !rel.contains("node_modules");
              })
          .sorted()
          .toList();
    }
  }

  @Test
  void everyAcfInTheRepositoryTokenisesAsTheLexerSees() throws Exception {
    TextMateTokenizer tm = new TextMateTokenizer(GRAMMAR);
    List<Path> files = acfFiles();
    assertWithMessage("the repository's ACFs").that(files.size()).isAtLeast(20);
    List<String> problems = new ArrayList<>();
    int tokens = 0;
    for (Path f : files) {
      String text = Files.readString(f, StandardCharsets.UTF_8).replace("\r\n", "\n");
      List<List<String>> scopes;
      try {
        scopes = tm.tokenize(text);
      } catch (IllegalStateException e) {
        problems.add(ROOT.relativize(f) + ": " + e.getMessage());
        continue;
      }
      tokens += check(ROOT.relativize(f).toString(), text, scopes, problems);
    }
    assertWithMessage("tokens checked").that(tokens).isAtLeast(3000);
    assertWithMessage("TextMate scopes that disagree with the ACF lexer").that(problems).isEmpty();
  }

  /** Checks every token of the lexer against the scopes of its first character. */
  static int check(String name, String text, List<List<String>> scopes, List<String> problems) {
    AcfLexer lexer = new AcfLexer(CharStreams.fromString(text));
    lexer.removeErrorListeners();
    int n = 0;
    for (Token t : lexer.getAllTokens()) {
      n++;
      List<String> s = scopes.get(t.getStartIndex());
      boolean invalid = s.stream().anyMatch(x -> x.startsWith("invalid"));
      String expected = EXPECTED.get(t.getType());
      String where =
          name
              + ":"
              + t.getLine()
              + ":"
              + (t.getCharPositionInLine() + 1)
              + " `"
              + t.getText()
              + "` ("
              + AcfLexer.VOCABULARY.getSymbolicName(t.getType())
              + ") has "
              + s;
      if (invalid != (t.getType() == AcfLexer.ERROR_CHAR)) {
        problems.add(where + (invalid ? ": marked invalid" : ": not marked invalid"));
      } else if (expected != null && s.stream().noneMatch(x -> x.startsWith(expected))) {
        problems.add(where + ": expected " + expected);
      } else if (t.getType() == AcfLexer.NAME
          && s.stream()
              .anyMatch(
                  x -> x.startsWith("constant.numeric") || x.startsWith("variable.language"))) {
        problems.add(where + ": a name coloured as a number or field");
      }
      // The whole token has one scope: no rule splits a lexer token.
      for (int i = t.getStartIndex() + 1;
          i <= t.getStopIndex()
              && t.getType() != AcfLexer.BLOCK_COMMENT
              && t.getType() != AcfLexer.LINE_COMMENT
              && t.getType() != AcfLexer.STRING;
          i++) {
        if (!scopes.get(i).equals(s)) {
          problems.add(
              where
                  + ": split at column "
                  + (i - t.getStartIndex() + 1)
                  + " into "
                  + scopes.get(i));
          break;
        }
      }
    }
    return n;
  }

  @Test
  void theCheckerCatchesAGrammarThatDisagrees() throws Exception {
    // The checker itself can fail: a field written where the lexer sees a name and a bad char.
    String text = "P1: T.PC == 0x10 && zero_0 => R1, null // c\nR1: call(h, T.INSN); @\n";
    List<List<String>> scopes = new TextMateTokenizer(GRAMMAR).tokenize(text);
    List<String> ok = new ArrayList<>();
    check("ok.acf", text, scopes, ok);
    assertThat(ok).isEmpty();
    assertThat(scopes.get(text.indexOf("T.PC"))).contains("variable.language.field.acf");
    assertThat(scopes.get(text.indexOf("@"))).contains("invalid.illegal.character.acf");
    assertThat(scopes.get(text.indexOf("P1"))).contains("entity.name.function.production.acf");
    // Scopes shifted by one character no longer agree with the lexer.
    List<List<String>> shifted = new ArrayList<>(scopes.subList(1, scopes.size()));
    shifted.add(List.of());
    List<String> bad = new ArrayList<>();
    check("shifted.acf", text, shifted, bad);
    assertThat(bad).isNotEmpty();
  }
}
