package org.dise.repl.lsp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dise.compiler.ast.Item;
import org.dise.compiler.ast.Param;
import org.dise.compiler.lib.StandardLibrary;
import org.dise.repl.common.AcfWords;
import org.dise.runtime.dise.Catalogue;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.OpClass;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.ParamSpec;
import org.eclipse.lsp4j.CompletionItem;
import org.eclipse.lsp4j.CompletionItemKind;
import org.eclipse.lsp4j.MarkupContent;
import org.eclipse.lsp4j.MarkupKind;

/**
 * Completion from the text before the cursor: fields after {@code T.}, modules after {@code
 * import}, blocks after {@code use} and their parameters inside its parentheses, components after
 * {@code sink X =} / {@code trigger X =} and their parameters, sinks inside {@code call(}, program
 * symbols inside {@code symbol(}; elsewhere the language's words, opcode classes, mnemonics, the
 * document's and its imports' names, and the program's symbols.
 */
final class AcfCompletion {
  private static final Pattern FIELD = Pattern.compile("\\b[Tt]\\.([A-Za-z_0-9]*)$");
  private static final Pattern IMPORT = Pattern.compile("\\bimport\\s+([\\w.]*)$");
  private static final Pattern USE = Pattern.compile("\\buse\\s+([\\w.]*)$");
  private static final Pattern USE_ARGS = Pattern.compile("\\buse\\s+([\\w.]+)\\s*\\(([^()]*)$");
  private static final Pattern COMPONENT =
      Pattern.compile("\\b(sink|trigger)\\s+\\w+\\s*=\\s*(\\w*)$");
  private static final Pattern COMPONENT_ARGS =
      Pattern.compile("\\b(?:sink|trigger)\\s+\\w+\\s*=\\s*(\\w+)\\s*\\(([^()]*)$");
  private static final Pattern CALL = Pattern.compile("\\bcall\\s*\\(\\s*([\\w.]*)$");
  private static final Pattern OPCLASS_VALUE =
      Pattern.compile("\\b[Tt]\\.(?i:OPCLASS)\\s*[=!]=\\s*(\\w*)$");
  private static final Pattern OP_VALUE =
      Pattern.compile("\\b[Tt]\\.(?i:OP)\\s*[=!]=\\s*([\\w.]*)$");
  private static final Pattern SYMBOL = Pattern.compile("\\bsymbol\\s*\\(\\s*([\\w.]*)$");

  /** The shared keywords, then those only a whole document uses, then the HPS registers. */
  private static final List<String> KEYWORDS =
      java.util.stream.Stream.of(
              AcfWords.KEYWORDS,
              List.of(
                  "as",
                  "tag",
                  "delete",
                  "zero",
                  "overflow",
                  "inc",
                  "dec",
                  "set",
                  "on_trig_inst",
                  "off_trig_inst"),
              AcfWords.HPS_REGISTERS)
          .flatMap(List::stream)
          .toList();

  private final Navigator navigator;

  AcfCompletion(Navigator navigator) {
    this.navigator = navigator;
  }

  List<CompletionItem> complete(AcfDocument doc, int offset, List<String> symbols) {
    String before = doc.text.substring(0, Math.min(offset, doc.text.length()));
    // The current item: from the last `;`, `{` or `}` (items may span lines).
    int cut =
        Math.max(
            before.lastIndexOf(';'), Math.max(before.lastIndexOf('{'), before.lastIndexOf('}')));
    String line = before.substring(before.lastIndexOf('\n') + 1);
    String item = before.substring(cut + 1);
    Matcher m;
    if ((m = FIELD.matcher(line)).find()) {
      return fields();
    }
    // After `T.OPCLASS ==` only an opcode class fits, after `T.OP ==` a mnemonic or codeword.
    if ((m = OPCLASS_VALUE.matcher(line)).find()) {
      return opClasses();
    }
    if ((m = OP_VALUE.matcher(line)).find()) {
      return mnemonics();
    }
    if ((m = IMPORT.matcher(line)).find()) {
      List<CompletionItem> out = new ArrayList<>();
      for (StandardLibrary.Module mod : StandardLibrary.modules()) {
        out.add(item(mod.name(), CompletionItemKind.Module, "library module", mod.summary()));
      }
      return out;
    }
    if ((m = USE.matcher(line)).find()) {
      return blocks(doc, offset);
    }
    if ((m = COMPONENT.matcher(line)).find()) {
      return componentNames(m.group(1).equals("sink"));
    }
    if ((m = CALL.matcher(line)).find()) {
      return sinks(doc, offset);
    }
    if ((m = SYMBOL.matcher(line)).find()) {
      return symbolItems(symbols);
    }
    // Arguments may run over lines: the current line first, then the whole item.
    for (String text : List.of(line, item)) {
      if ((m = USE_ARGS.matcher(text)).find()) {
        return blockParams(doc, m.group(1), offset);
      }
      if ((m = COMPONENT_ARGS.matcher(text)).find()) {
        return componentParams(m.group(1));
      }
    }
    return everything(doc, offset, symbols);
  }

  static List<CompletionItem> opClasses() {
    List<CompletionItem> out = new ArrayList<>();
    for (OpClass c : OpClass.values()) {
      out.add(
          item(
              c.acfName(),
              CompletionItemKind.EnumMember,
              "opcode class",
              LanguageDocs.opClass(c.acfName()).orElse("")));
    }
    return out;
  }

  static List<CompletionItem> mnemonics() {
    List<CompletionItem> out = new ArrayList<>();
    for (String codeword : List.of("on_trig_inst", "off_trig_inst")) {
      out.add(
          item(
              codeword,
              CompletionItemKind.Keyword,
              "codeword",
              LanguageDocs.keyword(codeword).orElse("")));
    }
    for (Op op : Op.values()) {
      out.add(item(op.mnemonic(), CompletionItemKind.Function, "RISC-V instruction", ""));
    }
    return out;
  }

  static List<CompletionItem> fields() {
    List<CompletionItem> out = new ArrayList<>();
    for (String f : LanguageDocs.fields().keySet()) {
      CompletionItem c =
          item(
              f,
              CompletionItemKind.Field,
              LanguageDocs.FieldTime.of(f).brief,
              LanguageDocs.field(f).orElse(""));
      out.add(c);
    }
    return out;
  }

  private List<CompletionItem> blocks(AcfDocument doc, int offset) {
    List<CompletionItem> out = new ArrayList<>();
    for (Declarations.Decl d : doc.declarations) {
      if (d.kind() == Declarations.Kind.BLOCK) {
        out.add(item(d.name().text(), CompletionItemKind.Module, d.signature(), d.doc()));
      }
    }
    for (Navigator.Target t : navigator.visibleFromImports(doc)) {
      if (t.decl().kind() == Declarations.Kind.BLOCK) {
        out.add(
            item(
                t.decl().name().text(),
                CompletionItemKind.Module,
                t.decl().signature(),
                t.decl().doc()));
      }
    }
    return out;
  }

  private List<CompletionItem> blockParams(AcfDocument doc, String block, int offset) {
    List<CompletionItem> out = new ArrayList<>();
    for (Navigator.Target t : navigator.definitions(doc, block, offset)) {
      if (t.decl().item() instanceof Item.AcfBlock b
          && t.decl().kind() == Declarations.Kind.BLOCK) {
        for (Param p : b.params()) {
          CompletionItem c =
              item(
                  p.name().text(),
                  CompletionItemKind.Property,
                  Declarations.text(p.span().file(), p.span()),
                  "parameter of `" + t.decl().signature() + "`");
          c.setInsertText(p.name().text() + " = ");
          out.add(c);
        }
        break;
      }
    }
    return out;
  }

  private List<CompletionItem> componentNames(boolean sinks) {
    List<CompletionItem> out = new ArrayList<>();
    for (ComponentSpec s : sortedSpecs()) {
      if (s.isSink() == sinks) {
        out.add(
            item(
                s.name(),
                CompletionItemKind.Class,
                (sinks ? "sink" : "trigger")
                    + " component("
                    + String.join(", ", s.paramNames())
                    + ")",
                LanguageDocs.component(s.name()).orElse(s.doc())));
      }
    }
    return out;
  }

  /** The component's parameters from the runtime's catalogue: type, range, default, doc. */
  private List<CompletionItem> componentParams(String component) {
    List<CompletionItem> out = new ArrayList<>();
    Catalogue.find(component)
        .ifPresent(
            s -> {
              for (ParamSpec p : s.params()) {
                CompletionItem c =
                    item(
                        p.name(),
                        CompletionItemKind.Property,
                        p.range() + (p.dflt().isEmpty() ? "" : ", default " + p.dflt()),
                        p.doc());
                c.setInsertText(p.name() + " = ");
                out.add(c);
              }
            });
    return out;
  }

  private static List<ComponentSpec> sortedSpecs() {
    List<ComponentSpec> specs = new ArrayList<>(Catalogue.all());
    specs.sort(java.util.Comparator.comparing(ComponentSpec::name));
    return specs;
  }

  private List<CompletionItem> sinks(AcfDocument doc, int offset) {
    Map<String, CompletionItem> out = new LinkedHashMap<>();
    Optional<Item.AcfBlock> block = doc.blockAt(offset);
    for (Declarations.Decl d : doc.declarations) {
      boolean visible = d.block().isEmpty() || block.isPresent() && d.block().get() == block.get();
      if (visible
          && (d.kind() == Declarations.Kind.SINK
              || d.kind() == Declarations.Kind.PARAM
                  && d.signature().matches("(?s)\\w+\\s*:\\s*sink\\b.*"))) {
        out.putIfAbsent(
            d.name().key(),
            item(d.name().text(), CompletionItemKind.Variable, d.signature(), d.doc()));
      }
    }
    for (Navigator.Target t : navigator.visibleFromImports(doc)) {
      if (t.decl().kind() == Declarations.Kind.SINK) {
        out.putIfAbsent(
            t.decl().name().key(),
            item(
                t.decl().name().text(),
                CompletionItemKind.Variable,
                t.decl().signature(),
                t.decl().doc()));
      }
    }
    return new ArrayList<>(out.values());
  }

  private static List<CompletionItem> symbolItems(List<String> symbols) {
    List<CompletionItem> out = new ArrayList<>();
    for (String s : symbols) {
      out.add(item(s, CompletionItemKind.Function, "program symbol", ""));
    }
    return out;
  }

  private List<CompletionItem> everything(AcfDocument doc, int offset, List<String> symbols) {
    Map<String, CompletionItem> out = new LinkedHashMap<>();
    for (Declarations.Decl d : doc.declarations) {
      if (d.kind() != Declarations.Kind.IMPORT && d.kind() != Declarations.Kind.USE) {
        out.putIfAbsent(
            d.name().text(),
            item(
                d.name().text(), kindOf(d.kind()), d.kind().label + ": " + d.signature(), d.doc()));
      }
    }
    for (Navigator.Target t : navigator.visibleFromImports(doc)) {
      Declarations.Decl d = t.decl();
      out.putIfAbsent(
          d.name().text(),
          item(d.name().text(), kindOf(d.kind()), d.kind().label + ": " + d.signature(), d.doc()));
    }
    for (String k : KEYWORDS) {
      out.putIfAbsent(
          k, item(k, CompletionItemKind.Keyword, "keyword", LanguageDocs.keyword(k).orElse("")));
    }
    for (OpClass c : OpClass.values()) {
      out.putIfAbsent(
          c.acfName(),
          item(
              c.acfName(),
              CompletionItemKind.EnumMember,
              "opcode class",
              LanguageDocs.opClass(c.acfName()).orElse("")));
    }
    for (String f : LanguageDocs.fields().keySet()) {
      out.putIfAbsent(
          "T." + f,
          item(
              "T." + f,
              CompletionItemKind.Field,
              "instruction field",
              LanguageDocs.field(f).orElse("")));
    }
    for (int i = 0; i < 4; i++) {
      for (String p : List.of("zero_", "overflow_", "inc_", "dec_", "set_")) {
        out.putIfAbsent(
            p + i,
            item(
                p + i,
                CompletionItemKind.Operator,
                "HPS",
                LanguageDocs.paperForm(p + i).orElse("")));
      }
    }
    for (Op op : Op.values()) {
      out.putIfAbsent(
          op.mnemonic(),
          item(op.mnemonic(), CompletionItemKind.Function, "RISC-V instruction", ""));
    }
    for (String s : symbols) {
      out.putIfAbsent(s, item(s, CompletionItemKind.Function, "program symbol", ""));
    }
    return new ArrayList<>(out.values());
  }

  private static CompletionItemKind kindOf(Declarations.Kind k) {
    return switch (k) {
      case BLOCK -> CompletionItemKind.Module;
      case SINK, TRIGGER -> CompletionItemKind.Variable;
      case CONST -> CompletionItemKind.Constant;
      case PRODUCTION, REPLACEMENT -> CompletionItemKind.Reference;
      default -> CompletionItemKind.Variable;
    };
  }

  static CompletionItem item(String label, CompletionItemKind kind, String detail, String doc) {
    CompletionItem c = new CompletionItem(label);
    c.setKind(kind);
    c.setDetail(detail);
    if (doc != null && !doc.isEmpty()) {
      c.setDocumentation(new MarkupContent(MarkupKind.MARKDOWN, doc));
    }
    return c;
  }
}
