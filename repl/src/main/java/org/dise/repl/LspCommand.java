package org.dise.repl;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.lsp.AcfLanguageServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code acf lsp}: the Language Server Protocol server for editors, over stdin and stdout. */
@Command(
    name = "lsp",
    mixinStandardHelpOptions = true,
    description = {
      "Run the ACF language server (Language Server Protocol over stdin and stdout) for an"
          + " editor: diagnostics as you type (those of `acf check`), completion, hover, go to"
          + " definition, the outline and formatting (`acf fmt`). Editors start it themselves;"
          + " editors/vscode is a VS Code extension that does.",
      "Settings, as initializationOptions or under `acf` in workspace/didChangeConfiguration:"
          + " `program` (a RISC-V ELF whose symbols completion offers) and `lib` (folders of"
          + " library ACFs, as `acf check --lib`).",
    },
    footer = {
      "",
      "Examples:",
      "  ./acf lsp                  # what an editor runs; it speaks JSON-RPC",
      "  ./acf lsp --stdio          # the same (the flag VS Code's client adds)",
      "  code --extensionDevelopmentPath=$PWD/editors/vscode .  # try the extension",
    })
public final class LspCommand implements Callable<Integer> {
  @Option(
      names = "--stdio",
      description =
          "Talk over stdin and stdout (the default and only"
              + " transport; accepted because editor clients pass it).")
  boolean stdio;

  @Override
  public Integer call() throws InterruptedException {
    // The protocol owns stdout: anything else printed there would corrupt a message, so the
    // server gets the real stdout and System.out goes to stderr.
    OutputStream protocol = new FileOutputStream(FileDescriptor.out);
    System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));
    CompletableFuture<Integer> exit = new CompletableFuture<>();
    AcfLanguageServer server = new AcfLanguageServer(exit::complete);
    java.util.concurrent.Future<Void> listening =
        AcfLanguageServer.launch(server, System.in, protocol);
    CompletableFuture.runAsync(
        () -> {
          try {
            listening.get();
          } catch (InterruptedException
              | ExecutionException
              | java.util.concurrent.CancellationException e) {
            // The input ended or broke: the editor is gone.
          }
          exit.complete(1);
        });
    try {
      return exit.get();
    } catch (ExecutionException e) {
      return ExitStatus.FAILURE;
    }
  }
}
