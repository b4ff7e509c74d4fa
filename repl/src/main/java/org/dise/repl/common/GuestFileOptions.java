package org.dise.repl.common;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The guest's files, as every command that runs a guest takes them (a picocli mixin of {@code acf
 * run}, {@code acf sweep} and {@code acf repl}; {@code acf bench} takes its --sysroot alone): where
 * a dynamically linked program's dynamic linker and libraries come from, and which folders it may
 * read or write besides its own.
 */
public final class GuestFileOptions {
  @Option(
      names = "--sysroot",
      paramLabel = "DIR",
      description =
          "Where a dynamically linked program's dynamic linker and libraries come from, as"
              + " qemu-riscv64 -L (default: $ACF_SYSROOT, else /usr/riscv64-linux-gnu when it"
              + " exists). The guest reads it without --allow-read and cannot write it.")
  public Path sysroot;

  @Option(
      names = "--allow-read",
      paramLabel = "DIR",
      description = "Also let the guest read files under DIR (repeatable).")
  public List<Path> allowRead = new ArrayList<>();

  @Option(
      names = "--allow-write",
      paramLabel = "DIR",
      description = "Also let the guest read and write files under DIR (repeatable).")
  public List<Path> allowWrite = new ArrayList<>();

  /** The values given. */
  public RunGuest.Files values() {
    return new RunGuest.Files(sysroot, allowRead, allowWrite);
  }

  /** These options as a command line gives them again (a worker's arguments). */
  public List<String> arguments() {
    List<String> a = new ArrayList<>();
    if (sysroot != null) {
      a.addAll(List.of("--sysroot", sysroot.toString()));
    }
    allowRead.forEach(p -> a.addAll(List.of("--allow-read", p.toString())));
    allowWrite.forEach(p -> a.addAll(List.of("--allow-write", p.toString())));
    return a;
  }
}
