package org.dise.compiler.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.DefaultErrorStrategy;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.misc.IntervalSet;
import org.antlr.v4.runtime.misc.ParseCancellationException;
import org.dise.compiler.ast.AcfFile;
import org.dise.compiler.ast.Comment;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.diag.Span;
import org.dise.grammar.AcfLexer;
import org.dise.grammar.AcfParser;

/**
 * Parses one ACF file into its AST, reporting every syntax error as a diagnostic. A file with
 * syntax errors yields no AST: later stages never see a half-built tree.
 */
public final class AcfParsing {
  /** Deeper nesting than this is refused before parsing, so that no input can exhaust a stack. */
  public static final int MAX_NESTING = 200;

  private AcfParsing() {}

  public static Optional<AcfFile> parse(SourceFile source, Diagnostics diags) {
    try {
      return parseOrOverflow(source, diags);
    } catch (StackOverflowError e) {
      diags.error(new Span(source, 0, 0), "the program is nested too deeply to parse");
      return Optional.empty();
    }
  }

  private static Optional<AcfFile> parseOrOverflow(SourceFile source, Diagnostics diags) {
    AcfLexer lexer = new AcfLexer(CharStreams.fromString(source.text(), source.name()));
    lexer.removeErrorListeners();
    CommonTokenStream tokens = new CommonTokenStream(lexer);
    tokens.fill();
    if (!nestingWithinLimit(source, tokens.getTokens(), diags)) {
      return Optional.empty();
    }
    AcfParser parser = new AcfParser(tokens);
    parser.removeErrorListeners();
    // Two-stage parsing: the fast SLL mode is exact for valid input; fall back to full LL
    // (with error recovery and reporting) only when SLL fails.
    parser.getInterpreter().setPredictionMode(PredictionMode.SLL);
    parser.setErrorHandler(new BailErrorStrategy());
    AcfParser.FileContext tree;
    try {
      tree = parser.file();
    } catch (ParseCancellationException e) {
      tokens.seek(0);
      parser.reset();
      parser.getInterpreter().setPredictionMode(PredictionMode.LL);
      parser.setErrorHandler(new DefaultErrorStrategy());
      SyntaxErrors listener = new SyntaxErrors(source, diags);
      parser.addErrorListener(listener);
      tree = parser.file();
      if (listener.count > 0) {
        return Optional.empty();
      }
    }
    int before = diags.errorCount();
    AcfFile file = new AstBuilder(source, diags).build(tree, comments(source, tokens.getTokens()));
    return diags.errorCount() > before ? Optional.empty() : Optional.of(file);
  }

  private static List<Comment> comments(SourceFile source, List<Token> tokens) {
    List<Comment> out = new ArrayList<>();
    for (Token t : tokens) {
      if (t.getChannel() == Token.HIDDEN_CHANNEL) {
        out.add(
            new Comment(t.getText(), new Span(source, t.getStartIndex(), t.getStopIndex() + 1)));
      }
    }
    return out;
  }

  private static boolean nestingWithinLimit(
      SourceFile source, List<Token> tokens, Diagnostics diags) {
    int depth = 0;
    for (Token t : tokens) {
      if (t.getType() == AcfLexer.LPAREN || t.getType() == AcfLexer.LBRACE) {
        if (++depth > MAX_NESTING) {
          diags.error(
              new Span(source, t.getStartIndex(), t.getStopIndex() + 1),
              "nesting deeper than " + MAX_NESTING + " levels");
          return false;
        }
      } else if (t.getType() == AcfLexer.RPAREN || t.getType() == AcfLexer.RBRACE) {
        depth = Math.max(0, depth - 1);
      }
    }
    return true;
  }

  /** Friendly names for token types in "expected ..." lists. */
  private static final Map<Integer, String> DESCRIPTIONS =
      Map.ofEntries(
          Map.entry(AcfLexer.NAME, "a name"),
          Map.entry(AcfLexer.NUMBER, "a number"),
          Map.entry(AcfLexer.STRING, "a string"),
          Map.entry(AcfLexer.FIELD, "a field such as `T.OP`"),
          Map.entry(AcfLexer.TINSN, "`T.INSN`"),
          Map.entry(AcfLexer.FLAG, "a flag such as `zero_0`"),
          Map.entry(AcfLexer.MICRO_OP, "a micro-op such as `inc_0`"),
          Map.entry(AcfLexer.ARROW, "`=>`"),
          Map.entry(AcfLexer.LABEL, "a label such as `.loop`"),
          Map.entry(AcfLexer.DOLLAR_NAME, "a DISE register such as `$dr0`"),
          Map.entry(Token.EOF, "end of file"));

  /** Collects syntax errors as diagnostics, one per offending token. */
  private static final class SyntaxErrors extends BaseErrorListener {
    private final SourceFile source;
    private final Diagnostics diags;
    private int count;
    private int lastIndex = -1;
    private int lastLine = -1;

    SyntaxErrors(SourceFile source, Diagnostics diags) {
      this.source = source;
      this.diags = diags;
    }

    @Override
    public void syntaxError(
        Recognizer<?, ?> recognizer,
        Object offending,
        int line,
        int col,
        String msg,
        RecognitionException e) {
      count++;
      Token t = (Token) offending;
      if (t == null || t.getTokenIndex() == lastIndex) {
        return;
      }
      lastIndex = t.getTokenIndex();
      // After the first error on a line, recovery often reports echoes of it: skip them.
      if (line == lastLine) {
        return;
      }
      lastLine = line;
      int start = Math.min(Math.max(0, t.getStartIndex()), source.text().length());
      int end = t.getType() == Token.EOF ? start : Math.max(start, t.getStopIndex() + 1);
      Span span = new Span(source, start, end);
      String what =
          t.getType() == Token.EOF
              ? "end of file"
              : t.getType() == AcfLexer.ERROR_CHAR
                  ? "character `" + t.getText() + "`"
                  : "`" + t.getText() + "`";
      String expected = expected((Parser) recognizer);
      String message =
          msg.startsWith("missing ") && expected != null
              ? "missing " + expected + " before " + what
              : "unexpected " + what + (expected == null ? "" : "; expected " + expected);
      Token previous = previousOnChannel((Parser) recognizer, t);
      if (missingSemicolon((Parser) recognizer, t, previous)) {
        // A statement left open at the end of a line: say so there, not at the next line's
        // first token (`R1: call(h, T.PC)` then `T.INSN;` reported "unexpected `T.INSN`").
        int at = previous.getStopIndex() + 1;
        diags.error(
            new Span(source, at, at),
            "syntax error: expected `;` at the end of the line",
            "the next line starts with " + what + ", which cannot continue this statement");
        return;
      }
      diags.error(span, "syntax error: " + message, hint(t, previous));
    }

    /** The default-channel token before {@code t} (comments are on the hidden channel). */
    private static Token previousOnChannel(Parser parser, Token t) {
      for (int i = t.getTokenIndex() - 1; i >= 0; i--) {
        Token p = parser.getInputStream().get(i);
        if (p.getChannel() == Token.DEFAULT_CHANNEL) {
          return p;
        }
      }
      return null;
    }

    /**
     * True when the offending token begins a line, the token before it ends an earlier one, and
     * either a {@code ;} is one of the tokens the parser would take there or the token can only
     * continue a replacement sequence ({@code T.INSN}, {@code call}, {@code $drN = ...}, a label):
     * the item before it ended where the line did, so the parser looks for a new item.
     */
    private static boolean missingSemicolon(Parser parser, Token t, Token previous) {
      if (previous == null
          || t.getType() == Token.EOF
          || previous.getType() == AcfLexer.SEMI
          || previous.getLine() >= t.getLine()) {
        return false;
      }
      int type = t.getType();
      if (type == AcfLexer.TINSN
          || type == AcfLexer.CALL
          || type == AcfLexer.DOLLAR_NAME
          || type == AcfLexer.LABEL) {
        return true;
      }
      try {
        return parser.getExpectedTokens().contains(AcfLexer.SEMI);
      } catch (RuntimeException ex) {
        return false;
      }
    }

    private static String hint(Token t, Token previous) {
      if (t.getType() == AcfLexer.LPAREN
          && previous != null
          && (previous.getType() == AcfLexer.NAME
              || previous.getType() == AcfLexer.FIELD
              || previous.getType() == AcfLexer.NUMBER
              || previous.getType() == AcfLexer.RPAREN
              || previous.getType() == AcfLexer.FLAG)) {
        return "two conditions need an operator between them, such as `||` or `&&`";
      }
      if (t.getType() == AcfLexer.ERROR_CHAR && t.getText().equals("\"")) {
        return "strings end on the line they begin";
      }
      return null;
    }

    /** The expected tokens, when there are few enough to be worth listing. */
    private static String expected(Parser parser) {
      IntervalSet set;
      try {
        set = parser.getExpectedTokens();
      } catch (RuntimeException ex) {
        return null;
      }
      List<Integer> types = set.toList();
      if (types.isEmpty() || types.size() > 6) {
        return null;
      }
      List<String> names = new ArrayList<>();
      for (int type : types) {
        String d = DESCRIPTIONS.get(type);
        if (d == null) {
          String lit = parser.getVocabulary().getLiteralName(type);
          d =
              lit != null
                  ? "`" + lit.substring(1, lit.length() - 1) + "`"
                  : parser.getVocabulary().getDisplayName(type);
        }
        if (!names.contains(d)) {
          names.add(d);
        }
      }
      if (names.size() == 1) {
        return names.get(0);
      }
      return String.join(", ", names.subList(0, names.size() - 1))
          + " or "
          + names.get(names.size() - 1);
    }
  }
}
