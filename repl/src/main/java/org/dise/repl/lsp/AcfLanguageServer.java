package org.dise.repl.lsp;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;
import org.dise.compiler.Frontend;
import org.dise.compiler.lib.ClasspathLibraryResolver;
import org.dise.compiler.lib.DirectoryLibraryResolver;
import org.dise.compiler.lib.LibraryResolver;
import org.dise.runtime.elf.ElfFile;
import org.dise.runtime.elf.Symbol;
import org.eclipse.lsp4j.CompletionOptions;
import org.eclipse.lsp4j.DidChangeConfigurationParams;
import org.eclipse.lsp4j.DidChangeWatchedFilesParams;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.ServerCapabilities;
import org.eclipse.lsp4j.ServerInfo;
import org.eclipse.lsp4j.TextDocumentSyncKind;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.LanguageClientAware;
import org.eclipse.lsp4j.services.LanguageServer;
import org.eclipse.lsp4j.services.TextDocumentService;
import org.eclipse.lsp4j.services.WorkspaceService;

/**
 * The ACF language server ({@code acf lsp}): the compiler's front end behind the Language Server
 * Protocol. Settings (initialization options, or {@code workspace/didChangeConfiguration} under
 * {@code acf}): {@code program}, a RISC-V ELF whose symbols completion offers, and {@code lib},
 * folders of library ACFs searched before the standard library (as {@code acf check --lib}).
 */
public final class AcfLanguageServer implements LanguageServer, LanguageClientAware {
  private final AcfTextDocumentService documents = new AcfTextDocumentService(this);
  private final LibrarySources sources;
  private final Navigator navigator;
  private final AcfCompletion completion;
  private final AcfHover hovers;
  private final IntConsumer onExit;
  private volatile Frontend frontend = Frontend.standard();
  private volatile LanguageClient client;
  private volatile List<String> symbols = List.of();
  private volatile boolean shutdown;

  /** {@code onExit} receives the exit status the protocol asks for (0 after shutdown). */
  public AcfLanguageServer(Path libraryCache, IntConsumer onExit) {
    this.sources = new LibrarySources(ClasspathLibraryResolver.standard(), libraryCache);
    this.navigator = new Navigator(sources);
    this.completion = new AcfCompletion(navigator);
    this.hovers = new AcfHover(navigator);
    this.onExit = onExit;
  }

  public AcfLanguageServer(IntConsumer onExit) {
    this(LibrarySources.defaultCache(), onExit);
  }

  /** Starts serving JSON-RPC on the streams; the future ends when the input does. */
  public static Future<Void> launch(AcfLanguageServer server, InputStream in, OutputStream out) {
    Launcher<LanguageClient> launcher = LSPLauncher.createServerLauncher(server, in, out);
    server.connect(launcher.getRemoteProxy());
    return launcher.startListening();
  }

  @Override
  public void connect(LanguageClient client) {
    this.client = client;
  }

  @Override
  public CompletableFuture<InitializeResult> initialize(InitializeParams params) {
    applySettings(params.getInitializationOptions());
    ServerCapabilities caps = new ServerCapabilities();
    caps.setTextDocumentSync(TextDocumentSyncKind.Full);
    caps.setCompletionProvider(new CompletionOptions(false, List.of(".", "(", " ")));
    caps.setHoverProvider(true);
    caps.setDefinitionProvider(true);
    caps.setDocumentSymbolProvider(true);
    caps.setDocumentFormattingProvider(true);
    return CompletableFuture.completedFuture(
        new InitializeResult(caps, new ServerInfo("acf", org.dise.repl.common.Version.VERSION)));
  }

  @Override
  public CompletableFuture<Object> shutdown() {
    shutdown = true;
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public void exit() {
    onExit.accept(shutdown ? 0 : 1);
  }

  @Override
  public TextDocumentService getTextDocumentService() {
    return documents;
  }

  @Override
  public WorkspaceService getWorkspaceService() {
    return new WorkspaceService() {
      @Override
      public void didChangeConfiguration(DidChangeConfigurationParams params) {
        applySettings(params.getSettings());
        documents.recheckAll();
      }

      @Override
      public void didChangeWatchedFiles(DidChangeWatchedFilesParams params) {
        documents.recheckAll();
      }
    };
  }

  private void applySettings(Object settings) {
    if (!(settings instanceof JsonObject o)) {
      return;
    }
    if (o.has("acf") && o.get("acf").isJsonObject()) {
      o = o.getAsJsonObject("acf");
    }
    LibraryResolver resolver = LibraryResolver.NONE;
    for (String dir : strings(o.get("lib"))) {
      if (Files.isDirectory(Path.of(dir))) {
        resolver = resolver.orElse(new DirectoryLibraryResolver(Path.of(dir)));
      } else {
        warn("acf.lib: " + dir + ": not a folder");
      }
    }
    resolver = resolver.orElse(ClasspathLibraryResolver.standard());
    sources.setResolver(resolver);
    frontend = Frontend.standard().withLibrary(resolver);
    List<String> program = strings(o.get("program"));
    symbols = program.isEmpty() ? List.of() : readSymbols(Path.of(program.get(0)));
  }

  private static List<String> strings(JsonElement e) {
    List<String> out = new ArrayList<>();
    if (e == null || e.isJsonNull()) {
      return out;
    }
    if (e.isJsonArray()) {
      for (JsonElement x : (JsonArray) e) {
        if (x.isJsonPrimitive() && !x.getAsString().isBlank()) {
          out.add(x.getAsString());
        }
      }
    } else if (e.isJsonPrimitive() && !e.getAsString().isBlank()) {
      out.add(e.getAsString());
    }
    return out;
  }

  private List<String> readSymbols(Path program) {
    try {
      ElfFile elf = ElfFile.read(program);
      TreeSet<String> names = new TreeSet<>();
      for (Symbol s : elf.symbols().symbols()) {
        if (!s.name().isEmpty()) {
          names.add(s.name());
        }
      }
      return List.copyOf(names);
    } catch (Exception e) {
      warn(
          "acf.program: cannot read "
              + program
              + ": "
              + (e instanceof java.io.IOException io
                  ? org.dise.repl.common.UserError.why(io)
                  : e.getMessage()));
      return List.of();
    }
  }

  private void warn(String message) {
    LanguageClient c = client;
    if (c != null) {
      c.showMessage(new MessageParams(MessageType.Warning, message));
    }
  }

  void publish(PublishDiagnosticsParams params) {
    LanguageClient c = client;
    if (c != null) {
      c.publishDiagnostics(params);
    }
  }

  Frontend frontend() {
    return frontend;
  }

  Navigator navigator() {
    return navigator;
  }

  AcfCompletion completion() {
    return completion;
  }

  AcfHover hovers() {
    return hovers;
  }

  List<String> programSymbols() {
    return symbols;
  }
}
