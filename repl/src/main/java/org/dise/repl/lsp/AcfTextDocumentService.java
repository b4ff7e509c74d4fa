package org.dise.repl.lsp;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.dise.compiler.ast.AcfFile;
import org.dise.compiler.ast.Item;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.format.Formatter;
import org.dise.compiler.parse.AcfParsing;
import org.eclipse.lsp4j.CompletionItem;
import org.eclipse.lsp4j.CompletionList;
import org.eclipse.lsp4j.CompletionParams;
import org.eclipse.lsp4j.DefinitionParams;
import org.eclipse.lsp4j.DidChangeTextDocumentParams;
import org.eclipse.lsp4j.DidCloseTextDocumentParams;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.DidSaveTextDocumentParams;
import org.eclipse.lsp4j.DocumentFormattingParams;
import org.eclipse.lsp4j.DocumentSymbol;
import org.eclipse.lsp4j.DocumentSymbolParams;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.Location;
import org.eclipse.lsp4j.LocationLink;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.SymbolInformation;
import org.eclipse.lsp4j.SymbolKind;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.eclipse.lsp4j.TextEdit;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.services.TextDocumentService;

/** The open {@code .acf} documents: full-text sync, diagnostics on every change, the features. */
final class AcfTextDocumentService implements TextDocumentService {
  private final AcfLanguageServer server;
  private final Map<String, AcfDocument> documents = new ConcurrentHashMap<>();

  AcfTextDocumentService(AcfLanguageServer server) {
    this.server = server;
  }

  @Override
  public void didOpen(DidOpenTextDocumentParams params) {
    update(params.getTextDocument().getUri(), params.getTextDocument().getText());
  }

  @Override
  public void didChange(DidChangeTextDocumentParams params) {
    String uri = params.getTextDocument().getUri();
    AcfDocument old = documents.get(uri);
    String text = old == null ? "" : old.text;
    for (TextDocumentContentChangeEvent change : params.getContentChanges()) {
      if (change.getRange() == null) {
        text = change.getText();
      } else {
        // Incremental changes, for clients that send them although we ask for full text.
        int s = Positions.offset(text, change.getRange().getStart());
        int e = Positions.offset(text, change.getRange().getEnd());
        text = text.substring(0, s) + change.getText() + text.substring(e);
      }
    }
    update(uri, text);
  }

  @Override
  public void didClose(DidCloseTextDocumentParams params) {
    String uri = params.getTextDocument().getUri();
    documents.remove(uri);
    server.publish(new PublishDiagnosticsParams(uri, List.of()));
  }

  @Override
  public void didSave(DidSaveTextDocumentParams params) {
    // A saved file may be imported by another open document: check them all again.
    recheckAll();
  }

  void recheckAll() {
    for (AcfDocument d : List.copyOf(documents.values())) {
      update(d.uri, d.text);
    }
  }

  private void update(String uri, String text) {
    AcfDocument previous = documents.get(uri);
    AcfDocument doc =
        new AcfDocument(
            uri, text, server.frontend(), previous == null ? Optional.empty() : previous.ast);
    documents.put(uri, doc);
    server.publish(new PublishDiagnosticsParams(uri, doc.diagnostics()));
  }

  private Optional<AcfDocument> document(String uri) {
    return Optional.ofNullable(documents.get(uri));
  }

  @Override
  public CompletableFuture<Either<List<CompletionItem>, CompletionList>> completion(
      CompletionParams params) {
    return CompletableFuture.supplyAsync(
        () -> {
          List<CompletionItem> items =
              document(params.getTextDocument().getUri())
                  .map(
                      d ->
                          server
                              .completion()
                              .complete(
                                  d,
                                  Positions.offset(d.text, params.getPosition()),
                                  server.programSymbols()))
                  .orElse(List.of());
          return Either.forRight(new CompletionList(false, items));
        });
  }

  @Override
  public CompletableFuture<Hover> hover(HoverParams params) {
    return CompletableFuture.supplyAsync(
        () ->
            document(params.getTextDocument().getUri())
                .flatMap(
                    d -> server.hovers().hover(d, Positions.offset(d.text, params.getPosition())))
                .orElse(null));
  }

  @Override
  public CompletableFuture<Either<List<? extends Location>, List<? extends LocationLink>>>
      definition(DefinitionParams params) {
    return CompletableFuture.supplyAsync(
        () -> {
          List<Location> out = new ArrayList<>();
          Optional<AcfDocument> doc = document(params.getTextDocument().getUri());
          if (doc.isPresent()) {
            AcfDocument d = doc.get();
            int offset = Positions.offset(d.text, params.getPosition());
            Optional<Item.Import> imp = d.ast.flatMap(a -> Navigator.importAt(a, offset));
            if (imp.isPresent()) {
              server
                  .navigator()
                  .resolve(d, imp.get())
                  .ifPresent(
                      s ->
                          out.add(
                              new Location(
                                  s.uri(), new Range(new Position(0, 0), new Position(0, 0)))));
            } else {
              d.wordAt(offset)
                  .ifPresent(
                      w -> {
                        for (Navigator.Target t :
                            server.navigator().definitions(d, w.text(), offset)) {
                          out.add(new Location(t.uri(), Positions.range(t.decl().name().span())));
                        }
                      });
            }
          }
          return Either.forLeft(out);
        });
  }

  @Override
  public CompletableFuture<List<Either<SymbolInformation, DocumentSymbol>>> documentSymbol(
      DocumentSymbolParams params) {
    return CompletableFuture.supplyAsync(
        () -> {
          List<Either<SymbolInformation, DocumentSymbol>> out = new ArrayList<>();
          Optional<AcfDocument> doc = document(params.getTextDocument().getUri());
          if (doc.isPresent() && doc.get().ast.isPresent()) {
            for (DocumentSymbol s : symbols(doc.get().ast.get().items())) {
              out.add(Either.forRight(s));
            }
          }
          return out;
        });
  }

  private static List<DocumentSymbol> symbols(List<Item> items) {
    List<DocumentSymbol> out = new ArrayList<>();
    for (Item item : items) {
      DocumentSymbol s = symbol(item);
      if (s != null) {
        if (item instanceof Item.AcfBlock b) {
          s.setChildren(symbols(b.body()));
        }
        out.add(s);
      }
    }
    return out;
  }

  private static DocumentSymbol symbol(Item item) {
    Optional<Declarations.Kind> kind = Declarations.Kind.of(item);
    if (kind.isEmpty()) {
      return null;
    }
    org.dise.compiler.ast.Name name = kind.get().item.nameOf(item);
    // A sink or trigger shows its component too.
    String detail =
        item instanceof Item.SinkDecl s
            ? "sink " + s.component().text()
            : item instanceof Item.TriggerDecl t
                ? "trigger " + t.component().text()
                : kind.get().item.word;
    return new DocumentSymbol(
        name.text(),
        symbolKind(kind.get()),
        Positions.range(item.span()),
        Positions.range(name.span()),
        detail);
  }

  /** How the outline draws a kind of declaration. */
  private static SymbolKind symbolKind(Declarations.Kind kind) {
    return switch (kind) {
      case PRODUCTION -> SymbolKind.Event;
      case REPLACEMENT -> SymbolKind.Function;
      case BLOCK -> SymbolKind.Module;
      case SINK, TRIGGER -> SymbolKind.Object;
      case COUNTER, REGISTER, PARAM -> SymbolKind.Variable;
      case CONST -> SymbolKind.Constant;
      case IMPORT -> SymbolKind.Package;
      case USE -> SymbolKind.Namespace;
    };
  }

  /** Formatting through {@code acf fmt}'s formatter: one edit, or none for unparsable text. */
  @Override
  public CompletableFuture<List<? extends TextEdit>> formatting(DocumentFormattingParams params) {
    return CompletableFuture.supplyAsync(
        () -> {
          Optional<AcfDocument> doc = document(params.getTextDocument().getUri());
          if (doc.isEmpty()) {
            return List.of();
          }
          String text = doc.get().text;
          Optional<AcfFile> ast =
              AcfParsing.parse(new SourceFile(doc.get().source.name(), text), new Diagnostics());
          if (ast.isEmpty()) {
            return List.of();
          }
          String formatted = Formatter.format(ast.get());
          if (formatted.equals(text)) {
            return List.of();
          }
          return List.of(new TextEdit(Positions.range(text, 0, text.length()), formatted));
        });
  }
}
