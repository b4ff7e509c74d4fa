package org.dise.compiler.parse;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.tree.TerminalNode;
import org.dise.compiler.ast.AcfFile;
import org.dise.compiler.ast.Arg;
import org.dise.compiler.ast.Comment;
import org.dise.compiler.ast.CounterRef;
import org.dise.compiler.ast.Expr;
import org.dise.compiler.ast.Item;
import org.dise.compiler.ast.MicroOp;
import org.dise.compiler.ast.Name;
import org.dise.compiler.ast.Operand;
import org.dise.compiler.ast.Param;
import org.dise.compiler.ast.ReplStmt;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.diag.Span;
import org.dise.grammar.AcfBaseVisitor;
import org.dise.grammar.AcfParser;

/**
 * Turns an ANTLR parse tree into the AST. The only class that sees parse-tree contexts; it runs
 * only on trees without syntax errors. It reports the few structural errors that the grammar leaves
 * open (two replacements after one arrow, a number that does not fit in 64 bits).
 */
final class AstBuilder extends AcfBaseVisitor<Object> {
  private final SourceFile source;
  private final Diagnostics diags;

  AstBuilder(SourceFile source, Diagnostics diags) {
    this.source = source;
    this.diags = diags;
  }

  AcfFile build(AcfParser.FileContext ctx, List<Comment> comments) {
    List<Item> items = new ArrayList<>();
    for (AcfParser.ItemContext ic : ctx.item()) {
      items.add(item(ic));
    }
    return new AcfFile(source, items, comments, new Span(source, 0, source.text().length()));
  }

  // ---------------------------------------------------------------- spans and names

  private Span span(ParserRuleContext ctx) {
    int start = ctx.getStart().getStartIndex();
    Token stop = ctx.getStop();
    int end = stop == null || stop.getStopIndex() < start ? start : stop.getStopIndex() + 1;
    return new Span(source, start, end);
  }

  private Span span(Token t) {
    return new Span(source, t.getStartIndex(), t.getStopIndex() + 1);
  }

  private Span span(TerminalNode t) {
    return span(t.getSymbol());
  }

  private Name name(AcfParser.IdentContext ctx) {
    return new Name(ctx.getText(), span(ctx));
  }

  private Name name(AcfParser.QualifiedNameContext ctx) {
    return new Name(ctx.getText(), span(ctx));
  }

  private Item item(AcfParser.ItemContext ctx) {
    return (Item) visit(ctx);
  }

  private Expr expr(ParserRuleContext ctx) {
    return (Expr) visit(ctx);
  }

  private List<Arg> args(List<AcfParser.ArgContext> ctxs) {
    List<Arg> out = new ArrayList<>();
    for (AcfParser.ArgContext a : ctxs) {
      out.add((Arg) visit(a));
    }
    return out;
  }

  // ---------------------------------------------------------------- items

  @Override
  public Item visitImportItem(AcfParser.ImportItemContext ctx) {
    Optional<Name> alias = Optional.ofNullable(ctx.ident()).map(this::name);
    Name target;
    boolean isFile;
    if (ctx.importTarget() instanceof AcfParser.FileImportContext f) {
      target = new Name(unquote(f.STRING().getText()), span(f));
      isFile = true;
    } else {
      AcfParser.LibraryImportContext l = (AcfParser.LibraryImportContext) ctx.importTarget();
      target = name(l.qualifiedName());
      isFile = false;
    }
    return new Item.Import(target, isFile, alias, span(ctx));
  }

  @Override
  public Item visitAcfItem(AcfParser.AcfItemContext ctx) {
    List<Param> params = new ArrayList<>();
    for (AcfParser.ParamContext p : ctx.param()) {
      Optional<Expr> def = Optional.ofNullable(p.argValue()).map(this::argValue);
      params.add(new Param(name(p.ident(0)), name(p.ident(1)), def, span(p)));
    }
    List<Item> body = new ArrayList<>();
    for (AcfParser.ItemContext ic : ctx.item()) {
      body.add(item(ic));
    }
    return new Item.AcfBlock(name(ctx.ident()), params, body, span(ctx));
  }

  @Override
  public Item visitUseItem(AcfParser.UseItemContext ctx) {
    return new Item.Use(name(ctx.qualifiedName()), args(ctx.arg()), span(ctx));
  }

  @Override
  public Item visitConstItem(AcfParser.ConstItemContext ctx) {
    return new Item.ConstDecl(name(ctx.ident()), expr(ctx.expr()), span(ctx));
  }

  @Override
  public Item visitRegisterItem(AcfParser.RegisterItemContext ctx) {
    return new Item.RegisterDecl(
        name(ctx.ident()), Optional.ofNullable(ctx.expr()).map(this::expr), span(ctx));
  }

  @Override
  public Item visitCounterItem(AcfParser.CounterItemContext ctx) {
    return new Item.CounterDecl(name(ctx.ident()), args(ctx.arg()), span(ctx));
  }

  @Override
  public Item visitSinkItem(AcfParser.SinkItemContext ctx) {
    return new Item.SinkDecl(name(ctx.ident(0)), name(ctx.ident(1)), args(ctx.arg()), span(ctx));
  }

  @Override
  public Item visitTriggerItem(AcfParser.TriggerItemContext ctx) {
    return new Item.TriggerDecl(name(ctx.ident(0)), name(ctx.ident(1)), args(ctx.arg()), span(ctx));
  }

  @Override
  public Item visitProductionItem(AcfParser.ProductionItemContext ctx) {
    List<MicroOp> control = new ArrayList<>();
    Name replacement = null;
    Name tag = null;
    int nulls = 0;
    boolean controlWritten = false;
    for (AcfParser.ActionContext a : ctx.action()) {
      if (a instanceof AcfParser.NullActionContext) {
        nulls++;
      } else if (a instanceof AcfParser.ReplacementRefContext r) {
        Name n = name(r.ident());
        if (replacement != null) {
          diags.error(
              n.span(),
              "production `"
                  + ctx.ident().getText()
                  + "` names two replacements, `"
                  + replacement.text()
                  + "` and `"
                  + n.text()
                  + "`",
              "a production has one replacement (or `null`) and one conditional control");
        } else {
          replacement = n;
        }
      } else if (a instanceof AcfParser.TagActionContext t) {
        Name n = name(t.ident());
        if (tag != null) {
          diags.error(
              span(t),
              "production `"
                  + ctx.ident().getText()
                  + "` tags for two sinks, `"
                  + tag.text()
                  + "` and `"
                  + n.text()
                  + "`",
              "a production has at most one tag(sink); write two productions");
        } else {
          tag = n;
        }
      } else {
        control.add((MicroOp) visit(a));
        controlWritten = true;
      }
    }
    int slots = nulls + (replacement != null ? 1 : 0) + (controlWritten ? 1 : 0);
    if (slots > 2) {
      diags.error(
          span(ctx.action(ctx.action().size() - 1)),
          "production `" + ctx.ident().getText() + "` has more than two actions",
          "after the arrow come a replacement (a name or `null`) and a conditional control "
              + "(micro-ops or `null`), in either order");
    }
    return new Item.Production(
        name(ctx.ident()),
        expr(ctx.expr()),
        control,
        Optional.ofNullable(replacement),
        Optional.ofNullable(tag),
        span(ctx));
  }

  @Override
  public Item visitReplacementItem(AcfParser.ReplacementItemContext ctx) {
    List<ReplStmt> body = new ArrayList<>();
    for (AcfParser.ReplElemContext e : ctx.replElem()) {
      List<AcfParser.LabelContext> labels =
          e instanceof AcfParser.LabelledStmtContext l
              ? l.label()
              : ((AcfParser.LabelsOnlyContext) e).label();
      for (AcfParser.LabelContext lc : labels) {
        body.add(new ReplStmt.LabelDef(lc.LABEL().getText(), span(lc.LABEL())));
      }
      if (e instanceof AcfParser.LabelledStmtContext l) {
        body.add((ReplStmt) visit(l.replStmt()));
      }
    }
    return new Item.Replacement(name(ctx.ident()), body, span(ctx));
  }

  // ---------------------------------------------------------------- arguments

  @Override
  public Arg visitNamedArg(AcfParser.NamedArgContext ctx) {
    return new Arg(Optional.of(name(ctx.ident())), argValue(ctx.argValue()), span(ctx));
  }

  @Override
  public Arg visitPositionalArg(AcfParser.PositionalArgContext ctx) {
    return new Arg(Optional.empty(), argValue(ctx.argValue()), span(ctx));
  }

  private Expr argValue(AcfParser.ArgValueContext ctx) {
    if (ctx instanceof AcfParser.StringValueContext s) {
      return new Expr.StringLit(unquote(s.STRING().getText()), span(s));
    }
    return expr(((AcfParser.ExprValueContext) ctx).expr());
  }

  // ---------------------------------------------------------------- expressions

  @Override
  public Expr visitParenExpr(AcfParser.ParenExprContext ctx) {
    return new Expr.Paren(expr(ctx.expr()), span(ctx));
  }

  @Override
  public Expr visitUnaryExpr(AcfParser.UnaryExprContext ctx) {
    Expr.UnaryOp op =
        switch (ctx.op.getType()) {
          case AcfParser.NOT -> Expr.UnaryOp.NOT;
          case AcfParser.MINUS -> Expr.UnaryOp.NEG;
          default -> Expr.UnaryOp.COMPLEMENT;
        };
    return new Expr.Unary(op, expr(ctx.expr()), span(ctx));
  }

  @Override
  public Expr visitBinaryExpr(AcfParser.BinaryExprContext ctx) {
    return new Expr.Binary(
        Expr.BinaryOp.bySymbol(ctx.op.getText()), expr(ctx.expr(0)), expr(ctx.expr(1)), span(ctx));
  }

  @Override
  public Expr visitNumberExpr(AcfParser.NumberExprContext ctx) {
    return number(ctx.NUMBER().getSymbol(), false);
  }

  @Override
  public Expr visitBoolExpr(AcfParser.BoolExprContext ctx) {
    return new Expr.BoolLit(ctx.TRUE() != null, span(ctx));
  }

  @Override
  public Expr visitPaperFlagExpr(AcfParser.PaperFlagExprContext ctx) {
    String t = ctx.FLAG().getText();
    int us = t.lastIndexOf('_');
    Span s = span(ctx);
    Expr.Flag flag = t.startsWith("zero") ? Expr.Flag.ZERO : Expr.Flag.OVERFLOW;
    return new Expr.FlagRef(flag, new CounterRef.Index(index(t.substring(us + 1), s), s), s);
  }

  @Override
  public Expr visitFlagExpr(AcfParser.FlagExprContext ctx) {
    Expr.Flag flag = ctx.kind.getType() == AcfParser.ZERO ? Expr.Flag.ZERO : Expr.Flag.OVERFLOW;
    return new Expr.FlagRef(flag, counterRef(ctx.counterRef()), span(ctx));
  }

  @Override
  public Expr visitFieldExpr(AcfParser.FieldExprContext ctx) {
    return new Expr.FieldRef(fieldName(ctx.FIELD().getText()), span(ctx));
  }

  @Override
  public Expr visitInsnExpr(AcfParser.InsnExprContext ctx) {
    return new Expr.InsnRef(span(ctx));
  }

  @Override
  public Expr visitDiseRegExpr(AcfParser.DiseRegExprContext ctx) {
    return new Expr.DiseRegRef(ctx.getText(), span(ctx));
  }

  @Override
  public Expr visitSymbolExpr(AcfParser.SymbolExprContext ctx) {
    AcfParser.SymbolAddressContext a = ctx.symbolAddress();
    return new Expr.SymbolAddr(symbolName(a), a.kind.getType() == AcfParser.SYMBOL_END, span(ctx));
  }

  private static String symbolName(AcfParser.SymbolAddressContext a) {
    return a.STRING() != null ? unquote(a.STRING().getText()) : a.qualifiedName().getText();
  }

  @Override
  public Expr visitNameExpr(AcfParser.NameExprContext ctx) {
    return new Expr.NameRef(name(ctx.qualifiedName()));
  }

  private CounterRef counterRef(AcfParser.CounterRefContext ctx) {
    if (ctx instanceof AcfParser.CounterIndexContext i) {
      Expr.NumberLit n = number(i.NUMBER().getSymbol(), false);
      return new CounterRef.Index(n.value(), n.span());
    }
    return new CounterRef.Named(name(((AcfParser.CounterNameContext) ctx).ident()));
  }

  // ---------------------------------------------------------------- micro-ops

  @Override
  public MicroOp visitPaperMicroOp(AcfParser.PaperMicroOpContext ctx) {
    String t = ctx.MICRO_OP().getText();
    int us = t.lastIndexOf('_');
    Span opSpan = span(ctx.MICRO_OP());
    MicroOp.Kind kind = MicroOp.Kind.valueOf(t.substring(0, us).toUpperCase(Locale.ROOT));
    CounterRef counter = new CounterRef.Index(index(t.substring(us + 1), opSpan), opSpan);
    Optional<Expr> src = Optional.ofNullable(ctx.microSource()).map(this::source);
    return new MicroOp(kind, counter, src, span(ctx));
  }

  @Override
  public MicroOp visitIncDecMicroOp(AcfParser.IncDecMicroOpContext ctx) {
    MicroOp.Kind kind = ctx.kind.getType() == AcfParser.INC ? MicroOp.Kind.INC : MicroOp.Kind.DEC;
    return new MicroOp(kind, counterRef(ctx.counterRef()), Optional.empty(), span(ctx));
  }

  @Override
  public MicroOp visitSetMicroOp(AcfParser.SetMicroOpContext ctx) {
    return new MicroOp(
        MicroOp.Kind.SET,
        counterRef(ctx.counterRef()),
        Optional.of(source(ctx.microSource())),
        span(ctx));
  }

  private Expr source(AcfParser.MicroSourceContext ctx) {
    if (ctx instanceof AcfParser.ConstSourceContext c) {
      return signed(c.MINUS() != null, c.NUMBER().getSymbol(), span(c));
    }
    return new Expr.NameRef(name(((AcfParser.NamedSourceContext) ctx).ident()));
  }

  // ---------------------------------------------------------------- replacement sequences

  @Override
  public ReplStmt visitOriginalInsnStmt(AcfParser.OriginalInsnStmtContext ctx) {
    return new ReplStmt.OriginalInsn(span(ctx));
  }

  @Override
  public ReplStmt visitDeleteStmt(AcfParser.DeleteStmtContext ctx) {
    return new ReplStmt.Delete(span(ctx));
  }

  @Override
  public ReplStmt visitCallStmt(AcfParser.CallStmtContext ctx) {
    List<Operand> args = new ArrayList<>();
    for (AcfParser.CallArgContext a : ctx.callArg()) {
      if (a instanceof AcfParser.InsnArgContext i) {
        args.add(new Operand.Insn(span(i)));
      } else {
        args.add(atom(((AcfParser.AtomArgContext) a).operandAtom()));
      }
    }
    java.util.Optional<Operand> result =
        ctx.DOLLAR_NAME() == null
            ? java.util.Optional.empty()
            : java.util.Optional.of(
                new Operand.DiseReg(
                    ctx.DOLLAR_NAME().getText(), span(ctx.DOLLAR_NAME().getSymbol())));
    return new ReplStmt.SinkCall(name(ctx.ident()), args, result, span(ctx));
  }

  @Override
  public ReplStmt visitInstructionStmt(AcfParser.InstructionStmtContext ctx) {
    List<Operand> ops = new ArrayList<>();
    for (AcfParser.OperandContext o : ctx.operand()) {
      if (o instanceof AcfParser.MemOperandContext m) {
        List<AcfParser.OperandAtomContext> atoms = m.operandAtom();
        Optional<Operand> offset =
            atoms.size() == 2 ? Optional.of(atom(atoms.get(0))) : Optional.empty();
        ops.add(new Operand.Mem(offset, atom(atoms.get(atoms.size() - 1)), span(m)));
      } else {
        ops.add(atom(((AcfParser.PlainOperandContext) o).operandAtom()));
      }
    }
    Name mnemonic = new Name(ctx.NAME().getText().toLowerCase(Locale.ROOT), span(ctx.NAME()));
    return new ReplStmt.Instruction(mnemonic, ops, span(ctx));
  }

  private Operand atom(AcfParser.OperandAtomContext ctx) {
    Span s = span(ctx);
    if (ctx instanceof AcfParser.NumberOperandContext n) {
      Expr.NumberLit lit = signed(n.MINUS() != null, n.NUMBER().getSymbol(), s);
      return new Operand.Imm(lit.value(), lit.text(), s);
    } else if (ctx instanceof AcfParser.FieldOperandContext f) {
      return new Operand.Field(fieldName(f.getText()), s);
    } else if (ctx instanceof AcfParser.DiseRegOperandContext d) {
      return new Operand.DiseReg(d.getText(), s);
    } else if (ctx instanceof AcfParser.LabelOperandContext l) {
      return new Operand.LabelRef(l.getText(), s);
    } else if (ctx instanceof AcfParser.SymbolOperandContext y) {
      AcfParser.SymbolAddressContext a = y.symbolAddress();
      return new Operand.SymbolAddr(symbolName(a), a.kind.getType() == AcfParser.SYMBOL_END, s);
    }
    return new Operand.NameOp(name(((AcfParser.NameOperandContext) ctx).qualifiedName()));
  }

  // ---------------------------------------------------------------- literals

  private static String fieldName(String text) {
    return text.substring(2).toUpperCase(Locale.ROOT);
  }

  private long index(String digits, Span s) {
    try {
      return Long.parseLong(digits);
    } catch (NumberFormatException e) {
      diags.error(s, "counter index `" + digits + "` is too large");
      return 0;
    }
  }

  private Expr.NumberLit signed(boolean negative, Token t, Span s) {
    Expr.NumberLit n = number(t, negative);
    return new Expr.NumberLit(n.value(), n.text(), s);
  }

  /** Parses decimal, hex and binary with {@code _} separators and K/M/Ki/Mi suffixes. */
  private Expr.NumberLit number(Token t, boolean negative) {
    String text = t.getText();
    String body = text;
    BigInteger scale = BigInteger.ONE;
    if (body.endsWith("Ki") || body.endsWith("Mi")) {
      scale = BigInteger.valueOf(body.endsWith("Ki") ? 1024 : 1024 * 1024);
      body = body.substring(0, body.length() - 2);
    } else if (body.endsWith("K") || body.endsWith("M")) {
      scale = BigInteger.valueOf(body.endsWith("K") ? 1_000 : 1_000_000);
      body = body.substring(0, body.length() - 1);
    }
    int radix = 10;
    if (body.startsWith("0x") || body.startsWith("0X")) {
      radix = 16;
      body = body.substring(2);
    } else if (body.startsWith("0b") || body.startsWith("0B")) {
      radix = 2;
      body = body.substring(2);
    }
    body = body.replace("_", "");
    Span s = span(t);
    if (body.isEmpty()) {
      diags.error(s, "number `" + text + "` has no digits");
      return new Expr.NumberLit(0, text, s);
    }
    BigInteger v = new BigInteger(body, radix).multiply(scale);
    if (negative) {
      v = v.negate();
    }
    // Hex and binary may spell any 64-bit pattern; decimal must fit a signed long.
    boolean fits = radix == 10 || v.signum() < 0 ? v.bitLength() <= 63 : v.bitLength() <= 64;
    if (!fits) {
      diags.error(s, "number `" + (negative ? "-" : "") + text + "` does not fit in 64 bits");
      return new Expr.NumberLit(0, (negative ? "-" : "") + text, s);
    }
    return new Expr.NumberLit(v.longValue(), (negative ? "-" : "") + text, s);
  }

  static String unquote(String quoted) {
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i < quoted.length() - 1; i++) {
      char c = quoted.charAt(i);
      if (c == '\\' && i + 1 < quoted.length() - 1) {
        char n = quoted.charAt(++i);
        sb.append(
            switch (n) {
              case 'n' -> '\n';
              case 't' -> '\t';
              default -> n;
            });
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
