package org.dise.runtime.timing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.dise.runtime.elf.ElfException;
import org.dise.runtime.elf.ElfFile;
import org.dise.runtime.elf.Segment;
import org.dise.runtime.elf.Symbol;
import org.dise.runtime.mem.Memory;

/**
 * A RISC-V ELF holding profile handlers, linked to run where it is loaded (a fixed address in the
 * shadow window, {@link ShadowHandlers#WINDOW}): the library's prebuilt {@code handlers.elf}, a
 * user's ELF, or a user's C file compiled on the fly.
 */
public final class HandlerImage {
  /**
   * The library's image, a resource under {@link #RESOURCES} (built by src/main/handlers/Makefile).
   */
  /**
   * Where the library and its header are in the resources (beside src/main/handlers' Makefile's
   * OUT).
   */
  private static final String RESOURCES = "/org/dise/runtime/timing/handler/";

  public static final String LIBRARY = "handlers.elf";

  /** The header a handler written in C includes (shipped beside the image). */
  public static final String HEADER = "acf_handler.h";

  /** The cross compiler {@code handler = "file.c"} needs. */
  public static final String CC = "riscv64-linux-gnu-gcc";

  private final String origin;
  private final ElfFile elf;

  private HandlerImage(String origin, ElfFile elf) {
    this.origin = origin;
    this.elf = elf;
  }

  /** The library's prebuilt handlers. */
  public static HandlerImage library() {
    try (InputStream in = HandlerImage.class.getResourceAsStream(RESOURCES + LIBRARY)) {
      if (in == null) {
        throw new IllegalStateException(
            "the handler image " + LIBRARY + " is missing from the jar");
      }
      return new HandlerImage(LIBRARY, ElfFile.parse(in.readAllBytes()));
    } catch (IOException | ElfException e) {
      throw new IllegalStateException("cannot read the handler image " + LIBRARY + ": " + e, e);
    }
  }

  /** A user's handler ELF (statically linked inside the shadow window). */
  public static HandlerImage read(Path file) {
    try {
      return new HandlerImage(file.toString(), ElfFile.read(file));
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read handler ELF " + file + ": " + e.getMessage());
    } catch (ElfException e) {
      throw new IllegalArgumentException(file + ": not a handler ELF: " + e.getMessage());
    }
  }

  /**
   * Compiles a user's C handler with {@link #CC} (-O2, freestanding, no libc), its text linked at
   * {@code base}; {@link #HEADER} is on the include path.
   */
  public static HandlerImage compile(Path source, long base) {
    if (!Files.isRegularFile(source)) {
      throw new IllegalArgumentException("handler source " + source + " does not exist");
    }
    Path dir;
    try {
      dir = Files.createTempDirectory("acf-handler");
      try (InputStream in = HandlerImage.class.getResourceAsStream(RESOURCES + HEADER)) {
        Files.write(dir.resolve(HEADER), in.readAllBytes());
      }
      Files.writeString(
          dir.resolve("handler.ld"),
          String.format(
              "SECTIONS {\n  . = 0x%x;\n  .text : { *(.text .text.*) }\n"
                  + "  .rodata : { *(.rodata .rodata.* .srodata .srodata.*) }\n"
                  + "  . = ALIGN(0x1000);\n"
                  + "  .data : { *(.data .data.* .sdata .sdata.* .sbss .sbss.* .bss .bss.*"
                  + " COMMON) }\n"
                  + "  /DISCARD/ : { *(.comment .note.* .eh_frame*) }\n}\n",
              base),
          StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot prepare the handler build: " + e.getMessage(), e);
    }
    Path out = dir.resolve("handler.elf");
    List<String> cmd =
        new ArrayList<>(
            List.of(
                CC,
                "-O2",
                "-ffreestanding",
                "-nostdlib",
                "-nostartfiles",
                "-fno-builtin",
                "-fno-pic",
                "-static",
                "-march=rv64gc",
                "-mabi=lp64d",
                "-mcmodel=medany",
                "-Wl,-e,0",
                "-Wl,--build-id=none",
                "-I",
                dir.toString(),
                "-Wl,-T," + dir.resolve("handler.ld"),
                "-o",
                out.toString(),
                source.toString()));
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "handler = \""
              + source
              + "\" needs "
              + CC
              + " on the PATH to compile it (or give a prebuilt ELF: handler ="
              + " \"FILE.elf:SYMBOL\")");
    }
    try {
      String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalArgumentException("compiling handler " + source + " timed out");
      }
      if (p.exitValue() != 0) {
        throw new IllegalArgumentException(
            "handler " + source + " does not compile:\n" + log.strip());
      }
      return new HandlerImage(source.toString(), ElfFile.read(out));
    } catch (IOException | ElfException e) {
      throw new IllegalArgumentException("compiling handler " + source + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while compiling " + source, e);
    }
  }

  /** Where the image came from (for messages). */
  public String origin() {
    return origin;
  }

  /** The address of function {@code name}, if the image defines it. */
  public OptionalLong symbol(String name) {
    return elf.symbols().symbols().stream()
        .filter(s -> s.name().equals(name))
        .mapToLong(Symbol::address)
        .findFirst();
  }

  /** The loadable segments. */
  public List<Segment> segments() {
    return elf.segments().stream().filter(s -> s.type() == Segment.PT_LOAD).toList();
  }

  /**
   * Maps the image's segments into {@code mem} with their permissions and fills them; every page
   * must lie in [{@code lo}, {@code hi}) and be free.
   */
  public void mapInto(Memory mem, long lo, long hi) {
    byte[] bytes = elf.bytes();
    for (Segment s : segments()) {
      long start = s.vaddr() & ~Memory.PAGE_MASK;
      long end = (s.vaddr() + s.memSize() + Memory.PAGE_MASK) & ~Memory.PAGE_MASK;
      if (start < lo || end > hi) {
        throw new IllegalArgumentException(
            String.format(
                "%s: a segment at 0x%x-0x%x lies outside the handler window 0x%x-0x%x (link it"
                    + " there)",
                origin, s.vaddr(), s.vaddr() + s.memSize(), lo, hi));
      }
      if (!mem.isFree(start, end - start)) {
        throw new IllegalArgumentException(
            String.format(
                "%s: its segment at 0x%x overlaps a mapping already there", origin, s.vaddr()));
      }
      int prot =
          ((s.flags() & Segment.PF_R) != 0 ? Memory.PROT_READ : 0)
              | ((s.flags() & Segment.PF_W) != 0 ? Memory.PROT_WRITE : 0)
              | ((s.flags() & Segment.PF_X) != 0 ? Memory.PROT_EXEC : 0);
      mem.map(start, end - start, prot);
      if (s.fileSize() > 0) {
        mem.poke(s.vaddr(), bytes, (int) s.offset(), (int) s.fileSize());
      }
    }
  }
}
