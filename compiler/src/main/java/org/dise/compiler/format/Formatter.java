package org.dise.compiler.format;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.Token;
import org.dise.compiler.ast.AcfFile;
import org.dise.compiler.ast.Arg;
import org.dise.compiler.ast.Comment;
import org.dise.compiler.ast.CounterRef;
import org.dise.compiler.ast.Expr;
import org.dise.compiler.ast.Item;
import org.dise.compiler.ast.MicroOp;
import org.dise.compiler.ast.Operand;
import org.dise.compiler.ast.Param;
import org.dise.compiler.ast.ReplStmt;
import org.dise.grammar.AcfLexer;

/**
 * Prints an AST in the canonical form of the language: {@code =>} arrows, the replacement before
 * the conditional control (as Fig. 6 writes them), upper-case fields, lower-case mnemonics,
 * four-space indentation, comments kept, blank lines between items kept (at most one). {@code
 * parse(print(parse(x))).equals(parse(x))} holds for every valid file.
 */
public final class Formatter {
  /** Replacement sequences longer than this go one instruction per line. */
  public static final int WIDTH = 100;

  private final StringBuilder out = new StringBuilder();
  private final List<Comment> comments;
  private final String text;
  private int nextComment;

  /** Where the last printed item or comment ended in the source, for blank lines. */
  private int lastEnd = -1;

  private Formatter(AcfFile file) {
    this.comments = file.comments();
    this.text = file.source().text();
  }

  public static String format(AcfFile file) {
    Formatter f = new Formatter(file);
    f.items(file.items(), "", 0);
    f.leadingComments(Integer.MAX_VALUE, "");
    String s = f.out.toString();
    while (s.endsWith("\n\n")) {
      s = s.substring(0, s.length() - 1);
    }
    return s.isEmpty() || s.endsWith("\n") ? s : s + "\n";
  }

  // ------------------------------------------------------------------ layout and comments

  private void items(List<Item> items, String indent, int blockStart) {
    lastEnd = blockStart;
    for (Item item : items) {
      leadingComments(item.span().start(), indent);
      blankLine(item.span().start());
      out.append(indent);
      item(item, indent);
      // Comments inside the item are moved after it, so that none is lost.
      trailingComments(item.span().end(), indent);
      lastEnd = item.span().end();
    }
  }

  /** Keeps one blank line where the source had at least one since the last thing printed. */
  private void blankLine(int start) {
    if (lastEnd < 0 || out.length() == 0 || endsWith("{\n")) {
      return;
    }
    int newlines = 0;
    for (int i = lastEnd; i < Math.min(start, text.length()); i++) {
      if (text.charAt(i) == '\n') {
        newlines++;
      }
    }
    if (newlines >= 2 && !endsWith("\n\n")) {
      out.append('\n');
    }
  }

  /** Whether the output so far ends with {@code s}, without copying it (once per comment). */
  private boolean endsWith(String s) {
    int n = out.length() - s.length();
    return n >= 0 && out.indexOf(s, n) == n;
  }

  private void leadingComments(int before, String indent) {
    while (nextComment < comments.size() && comments.get(nextComment).span().start() < before) {
      Comment c = comments.get(nextComment);
      blankLine(c.span().start());
      out.append(indent).append(c.text().strip()).append('\n');
      lastEnd = c.span().end();
      nextComment++;
    }
  }

  /** Ends the item's line, with a comment on the same source line appended. */
  private void trailingComments(int end, String indent) {
    List<Comment> inside = new ArrayList<>();
    while (nextComment < comments.size() && comments.get(nextComment).span().start() < end) {
      inside.add(comments.get(nextComment++));
    }
    if (nextComment < comments.size()) {
      Comment c = comments.get(nextComment);
      if (c.text().startsWith("//") && sameLine(end, c.span().start())) {
        out.append("  ").append(c.text().strip());
        nextComment++;
        end = c.span().end();
      }
    }
    out.append('\n');
    for (Comment c : inside) {
      out.append(indent).append(c.text().strip()).append('\n');
    }
    lastEnd = end;
  }

  private boolean sameLine(int from, int to) {
    for (int i = from; i < to && i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        return false;
      }
    }
    return true;
  }

  // ------------------------------------------------------------------ items

  private void item(Item item, String indent) {
    if (item instanceof Item.Import i) {
      out.append("import ").append(i.isFile() ? quote(i.target().text()) : i.target().text());
      i.alias().ifPresent(a -> out.append(" as ").append(a.text()));
      out.append(';');
    } else if (item instanceof Item.AcfBlock b) {
      out.append("acf ").append(b.name().text());
      if (!b.params().isEmpty()) {
        List<String> ps = new ArrayList<>();
        for (Param p : b.params()) {
          ps.add(
              p.name().text()
                  + ": "
                  + p.type().text()
                  + p.defaultValue().map(d -> " = " + expr(d, 0)).orElse(""));
        }
        out.append('(').append(String.join(", ", ps)).append(')');
      }
      out.append(" {\n");
      items(b.body(), indent + "    ", b.span().start());
      leadingComments(b.span().end() - 1, indent + "    ");
      out.append(indent).append('}');
    } else if (item instanceof Item.Use u) {
      out.append("use ").append(u.target().text());
      if (!u.args().isEmpty()) {
        out.append(args(u.args()));
      }
      out.append(';');
    } else if (item instanceof Item.ConstDecl c) {
      out.append("const ")
          .append(c.name().text())
          .append(" = ")
          .append(expr(c.value(), 0))
          .append(';');
    } else if (item instanceof Item.RegisterDecl r) {
      out.append("register ").append(r.name().text());
      r.init().ifPresent(e -> out.append(" = ").append(expr(e, 0)));
      out.append(';');
    } else if (item instanceof Item.CounterDecl c) {
      out.append("counter ").append(c.name().text());
      if (!c.args().isEmpty()) {
        out.append(args(c.args()));
      }
      out.append(';');
    } else if (item instanceof Item.SinkDecl s) {
      out.append("sink ")
          .append(s.name().text())
          .append(" = ")
          .append(s.component().text())
          .append(args(s.args()))
          .append(';');
    } else if (item instanceof Item.TriggerDecl t) {
      out.append("trigger ")
          .append(t.name().text())
          .append(" = ")
          .append(t.component().text())
          .append(args(t.args()))
          .append(';');
    } else if (item instanceof Item.Production p) {
      out.append(p.name().text())
          .append(": ")
          .append(expr(p.pattern(), 0))
          .append(" => ")
          .append(p.replacement().map(n -> n.text()).orElse("null"))
          .append(", ");
      if (p.control().isEmpty()) {
        out.append("null");
      } else {
        List<String> ops = new ArrayList<>();
        for (MicroOp m : p.control()) {
          ops.add(microOp(m));
        }
        out.append(String.join(", ", ops));
      }
      p.tag().ifPresent(t -> out.append(", tag(").append(t.text()).append(')'));
    } else if (item instanceof Item.Replacement r) {
      replacement(r, indent);
    }
  }

  private void replacement(Item.Replacement r, String indent) {
    List<String> lines = new ArrayList<>();
    boolean labels = false;
    StringBuilder pending = new StringBuilder();
    for (ReplStmt s : r.body()) {
      if (s instanceof ReplStmt.LabelDef l) {
        labels = true;
        pending.append(l.name()).append(": ");
      } else {
        lines.add(pending + stmt(s) + ";");
        pending.setLength(0);
      }
    }
    if (pending.length() > 0) {
      lines.add(pending.toString().strip());
    }
    String oneLine = r.name().text() + ": " + String.join(" ", lines);
    if (!labels && indent.length() + oneLine.length() <= WIDTH) {
      out.append(oneLine);
      return;
    }
    out.append(r.name().text()).append(':');
    for (String l : lines) {
      out.append('\n').append(indent).append("    ").append(l);
    }
  }

  private String stmt(ReplStmt s) {
    if (s instanceof ReplStmt.OriginalInsn) {
      return "T.INSN";
    }
    if (s instanceof ReplStmt.Delete) {
      return "delete";
    }
    if (s instanceof ReplStmt.SinkCall c) {
      List<String> parts = new ArrayList<>();
      parts.add(c.sink().text());
      for (Operand o : c.args()) {
        parts.add(operand(o));
      }
      return c.result().map(r -> operand(r) + " = ").orElse("")
          + "call("
          + String.join(", ", parts)
          + ")";
    }
    ReplStmt.Instruction i = (ReplStmt.Instruction) s;
    List<String> ops = new ArrayList<>();
    for (Operand o : i.operands()) {
      ops.add(operand(o));
    }
    return mnemonic(i.mnemonic().text()) + (ops.isEmpty() ? "" : " " + String.join(", ", ops));
  }

  /**
   * A mnemonic in lower case, or in upper case when its lower-case spelling lexes as something else
   * (a keyword such as {@code acf}, a flag such as {@code zero_1}): the parser reads mnemonics in
   * any case and lower-cases them, so either prints the same instruction back.
   */
  private static String mnemonic(String m) {
    AcfLexer lexer = new AcfLexer(CharStreams.fromString(m));
    lexer.removeErrorListeners();
    boolean name = lexer.nextToken().getType() == AcfLexer.NAME;
    return name && lexer.nextToken().getType() == Token.EOF ? m : m.toUpperCase(Locale.ROOT);
  }

  private String operand(Operand o) {
    if (o instanceof Operand.Imm i) {
      return i.text();
    } else if (o instanceof Operand.Field f) {
      return "T." + f.name();
    } else if (o instanceof Operand.Insn) {
      return "T.INSN";
    } else if (o instanceof Operand.DiseReg d) {
      return d.name();
    } else if (o instanceof Operand.LabelRef l) {
      return l.name();
    } else if (o instanceof Operand.SymbolAddr y) {
      return symbolAddr(y.symbol(), y.end());
    } else if (o instanceof Operand.NameOp n) {
      return n.name().text();
    }
    Operand.Mem m = (Operand.Mem) o;
    return m.offset().map(this::operand).orElse("") + "(" + operand(m.base()) + ")";
  }

  private String microOp(MicroOp m) {
    String src = m.source().map(e -> expr(e, 0)).orElse(null);
    if (m.counter() instanceof CounterRef.Index i) {
      return m.kind().word() + "_" + i.index() + (src == null ? "" : "(" + src + ")");
    }
    String c = counter(m.counter());
    return m.kind().word() + "(" + c + (src == null ? "" : ", " + src) + ")";
  }

  private static String counter(CounterRef c) {
    return c instanceof CounterRef.Index i
        ? Long.toString(i.index())
        : ((CounterRef.Named) c).name().text();
  }

  private String args(List<Arg> args) {
    List<String> parts = new ArrayList<>();
    for (Arg a : args) {
      parts.add(a.name().map(n -> n.text() + " = ").orElse("") + expr(a.value(), 0));
    }
    return "(" + String.join(", ", parts) + ")";
  }

  // ------------------------------------------------------------------ expressions

  /** Prints an expression; parentheses are added only where a synthesised tree needs them. */
  public static String expr(Expr e, int parentPrecedence) {
    StringBuilder sb = new StringBuilder();
    expr(e, parentPrecedence, sb);
    return sb.toString();
  }

  /**
   * Appends an expression. One builder for the whole tree: returning a String per operator copied a
   * chain of n terms n times over (a 20,000-term chain took 1.2 GB).
   */
  private static void expr(Expr e, int parentPrecedence, StringBuilder sb) {
    if (e instanceof Expr.Paren p) {
      sb.append('(');
      expr(p.inner(), 0, sb);
      sb.append(')');
    } else if (e instanceof Expr.Unary u) {
      sb.append(u.op().symbol);
      expr(u.operand(), 11, sb);
    } else if (e instanceof Expr.Binary b) {
      int p = b.op().precedence;
      boolean paren = p < parentPrecedence;
      if (paren) {
        sb.append('(');
      }
      expr(b.left(), p, sb);
      sb.append(' ').append(b.op().symbol).append(' ');
      expr(b.right(), p + 1, sb);
      if (paren) {
        sb.append(')');
      }
    } else {
      sb.append(leaf(e));
    }
  }

  /** An expression without subexpressions. */
  private static String leaf(Expr e) {
    if (e instanceof Expr.NumberLit n) {
      return n.text();
    } else if (e instanceof Expr.BoolLit b) {
      return Boolean.toString(b.value());
    } else if (e instanceof Expr.StringLit s) {
      return quote(s.value());
    } else if (e instanceof Expr.FlagRef f) {
      if (f.counter() instanceof CounterRef.Index i) {
        return f.flag().word() + "_" + i.index();
      }
      return f.flag().word() + "(" + counter(f.counter()) + ")";
    } else if (e instanceof Expr.FieldRef f) {
      return "T." + f.name();
    } else if (e instanceof Expr.InsnRef) {
      return "T.INSN";
    } else if (e instanceof Expr.DiseRegRef d) {
      return d.name();
    } else if (e instanceof Expr.SymbolAddr y) {
      return symbolAddr(y.symbol(), y.end());
    } else if (e instanceof Expr.NameRef n) {
      return n.name().text();
    }
    throw new IllegalArgumentException("not a leaf expression: " + e);
  }

  /** {@code symbol(name)}, quoting a name that is not an identifier. */
  public static String symbolAddr(String symbol, boolean end) {
    boolean plain = symbol.matches("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z0-9_]+)*");
    return (end ? "symbol_end(" : "symbol(") + (plain ? symbol : quote(symbol)) + ")";
  }

  static String quote(String s) {
    return "\""
        + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\t", "\\t")
        + "\"";
  }
}
