package org.dise.runtime.isa;

import static com.google.common.truth.Truth.assertWithMessage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.dise.runtime.elf.ElfFile;
import org.dise.runtime.elf.Symbol;
import org.dise.runtime.elf.SymbolTable;
import org.dise.testsupport.ExternalTool;
import org.dise.testsupport.RepositoryRoot;
import org.dise.testsupport.TestFiles;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our {@link Decoder} and {@link Disassembler} against {@code riscv64-linux-gnu-objdump -d} on the
 * .text of real programs, instruction by instruction: same lengths, same text.
 *
 * <p>Deliberate differences, normalised away on objdump's side before comparing:
 *
 * <ul>
 *   <li>{@code # 77d90 <lock>} comments: objdump resolves gp-, tp- and auipc-relative addresses by
 *       tracking register values across instructions; we format one instruction at a time.
 *   <li>binutils 2.40 shows {@code addi}/{@code addiw} (and c.addi, c.addiw, c.addi16sp, ...) as
 *       {@code add}/{@code addw} with an immediate operand, through alias rows it added for the
 *       assembler; other binutils versions and the ISA manual print {@code addi}, and so do we.
 * </ul>
 */
class DisassemblerObjdumpTest {
  private static final String OBJDUMP = "riscv64-linux-gnu-objdump";
  private static final Path ROOT = RepositoryRoot.path();

  private static String objdumpMissing;

  @BeforeAll
  static void findObjdump() {
    objdumpMissing = ExternalTool.missing(OBJDUMP, "--version");
    if (objdumpMissing != null) {
      System.out.println("DisassemblerObjdumpTest skipped: " + objdumpMissing);
    }
  }

  static Stream<Path> programs() throws IOException {
    List<Path> out =
        new ArrayList<>(
            TestFiles.endingWith(ROOT.resolve("runtime/emulator/src/test/resources/isa"), ".elf"));
    out.add(ROOT.resolve("examples/programs/bin/hello"));
    out.add(ROOT.resolve("examples/programs/bin/interp"));
    return out.stream();
  }

  private static final Pattern LINE =
      Pattern.compile("^\\s*([0-9a-f]+):\\t([0-9a-f]+)\\s*\\t(.*)$");
  private static final Pattern CSR_IMM_ALIAS =
      Pattern.compile("^(csrr[wsc]|csr[wsc])\\t(.*),([0-9]+)$");
  private static final Pattern IMM_ALIAS =
      Pattern.compile(
          "^(add|and|or|xor|sll|srl|sra)(w?)\\t([a-z0-9]+),([a-z0-9]+),(-?[0-9]+|0x[0-9a-f]+)$");

  /** One instruction line of objdump: address, raw encoding as printed, text. */
  record Line(long addr, String raw, String text) {}

  @ParameterizedTest(name = "{0}")
  @MethodSource("programs")
  void matchesObjdump(Path program) throws Exception {
    Assumptions.assumeTrue(objdumpMissing == null, objdumpMissing);
    ElfFile elf = ElfFile.read(program);
    Section text = section(elf.bytes(), ".text");
    List<Line> lines = objdump(program);
    SymbolTable symbols = objdumpSymbols(elf.bytes(), text);

    List<String> mismatches = new ArrayList<>();
    Map<String, Integer> byMnemonic = new LinkedHashMap<>();
    ByteBuffer b = ByteBuffer.wrap(elf.bytes()).order(ByteOrder.LITTLE_ENDIAN);
    long pc = text.addr;
    int i = 0;
    int zeroRuns = 0;
    int dataSkipped = 0;
    TreeMap<Long, Boolean> mapping = mappingSymbols(elf.bytes());
    while (pc < text.addr + text.size) {
      // objdump prints runs of zero bytes (alignment padding) as "...": skip them the same way.
      long next = i < lines.size() ? lines.get(i).addr : text.addr + text.size;
      if (next > pc && allZero(b, text.offset + (pc - text.addr), next - pc)) {
        zeroRuns++;
        pc = next;
        continue;
      }
      int off = (int) (text.offset + (pc - text.addr));
      int lo = b.getShort(off) & 0xffff;
      boolean isLong = Decoder.isLong(lo);
      int raw = isLong ? b.getInt(off) : lo;
      int size = isLong ? 4 : 2;
      Line want = lines.get(i++);
      if (want.text.matches("^\\.(word|short|byte)\\s.*") && inData(mapping, pc)) {
        // Bytes the source emitted as data inside .text (a $d mapping symbol, e.g. the RVC
        // HINTs that compressed.elf writes with .word): objdump shows data, we do not compare.
        dataSkipped++;
        pc += want.raw.length() / 2;
        continue;
      }
      assertWithMessage("%s: objdump and the decoder walk .text differently", program)
          .that(Long.toHexString(want.addr))
          .isEqualTo(Long.toHexString(pc));
      String ours;
      try {
        DecodedInsn d = Decoder.decode(pc, raw);
        assertWithMessage("length at %s", Long.toHexString(pc)).that(d.size).isEqualTo(size);
        ours = normalise(Disassembler.format(d, symbols));
      } catch (IllegalInstructionException e) {
        ours = (size == 2 ? ".2byte\t0x" : ".4byte\t0x") + Integer.toHexString(raw);
      } catch (RuntimeException e) {
        ours = "(" + e + ")";
      }
      String expected = objdumpText(want.text);
      if (!ours.equals(expected)) {
        String m = expected.split("\t")[0];
        byMnemonic.merge(m, 1, Integer::sum);
        if (mismatches.size() < 40) {
          mismatches.add(
              String.format(
                  "%x: %s  objdump: %-40s ours: %s",
                  pc,
                  size == 2 ? String.format("%04x", raw) : String.format("%08x", raw),
                  expected.replace('\t', ' '),
                  ours.replace('\t', ' ')));
        }
      }
      pc += size;
    }
    assertWithMessage("%s: objdump shows more instructions in .text than we walked", program)
        .that(i)
        .isEqualTo(lines.size());
    int total = byMnemonic.values().stream().mapToInt(Integer::intValue).sum();
    System.out.printf(
        "DisassemblerObjdumpTest %s: %d instructions, %d zero runs and %d data directives"
            + " skipped, %d differ %s%n",
        program.getFileName(), i, zeroRuns, dataSkipped, total, byMnemonic);
    assertWithMessage(
            "%s: %s instructions differ from objdump (by mnemonic %s); first ones",
            program.getFileName(), total, byMnemonic)
        .that(mismatches)
        .isEmpty();
  }

  private static boolean allZero(ByteBuffer b, long from, long n) {
    for (long k = 0; k < n; k++) {
      if (b.get((int) (from + k)) != 0) {
        return false;
      }
    }
    return true;
  }

  private static String objdumpText(String text) {
    String t = text;
    int hash = t.indexOf(" # ");
    if (hash >= 0) {
      t = t.substring(0, hash);
    }
    t = normalise(t);
    Matcher m = IMM_ALIAS.matcher(t);
    if (m.matches()) {
      t = m.group(1) + "i" + m.group(2) + "\t" + m.group(3) + "," + m.group(4) + "," + m.group(5);
    }
    m = CSR_IMM_ALIAS.matcher(t);
    if (m.matches()) {
      t = m.group(1) + "i\t" + m.group(2) + "," + m.group(3);
    }
    return t;
  }

  /** Mnemonic, one tab, operands; no other whitespace. */
  private static String normalise(String s) {
    String t = s.strip();
    int sp = t.indexOf('\t');
    if (sp < 0) {
      sp = t.indexOf(' ');
    }
    if (sp < 0) {
      return t;
    }
    return t.substring(0, sp) + "\t" + t.substring(sp + 1).strip().replaceAll("\\s*,\\s*", ",");
  }

  private static List<Line> objdump(Path program) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(OBJDUMP, "-d", "-j", ".text", program.toString())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException(OBJDUMP + " failed on " + program);
    }
    List<Line> lines = new ArrayList<>();
    for (String l : out.split("\n")) {
      Matcher m = LINE.matcher(l);
      if (m.matches()) {
        lines.add(new Line(Long.parseLong(m.group(1), 16), m.group(2), m.group(3)));
      }
    }
    return lines;
  }

  record Section(long addr, long offset, long size) {}

  private static boolean inData(TreeMap<Long, Boolean> mapping, long pc) {
    Map.Entry<Long, Boolean> e = mapping.floorEntry(pc);
    return e != null && e.getValue();
  }

  /** RISC-V mapping symbols: address to true for $d (data follows), false for $x (code). */
  static TreeMap<Long, Boolean> mappingSymbols(byte[] bytes) {
    TreeMap<Long, Boolean> out = new TreeMap<>();
    for (ElfSym s : elfSymbols(bytes)) {
      if (s.name().startsWith("$d") || s.name().startsWith("$x")) {
        out.put(s.value(), s.name().startsWith("$d"));
      }
    }
    return out;
  }

  /** An ELF symbol with what objdump's compare_symbols looks at. */
  record ElfSym(String name, long value, long size, int bind, int type) {}

  /** Every defined symbol of the ELF symbol table. */
  static List<ElfSym> elfSymbols(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    long shoff = b.getLong(40);
    int shentsize = b.getShort(58) & 0xffff;
    int shnum = b.getShort(60) & 0xffff;
    List<ElfSym> syms = new ArrayList<>();
    for (int i = 0; i < shnum; i++) {
      int o = (int) (shoff + (long) i * shentsize);
      if (b.getInt(o + 4) != 2) { // SHT_SYMTAB
        continue;
      }
      long off = b.getLong(o + 24);
      long size = b.getLong(o + 32);
      int so = (int) (shoff + (long) b.getInt(o + 40) * shentsize);
      long strOff = b.getLong(so + 24);
      for (long e = off; e + 24 <= off + size; e += 24) {
        int info = b.get((int) e + 4) & 0xff;
        int shndx = b.getShort((int) e + 6) & 0xffff;
        if (shndx == 0) {
          continue;
        }
        int n = (int) strOff + b.getInt((int) e);
        int end = n;
        while (bytes[end] != 0) {
          end++;
        }
        String name = new String(bytes, n, end - n, StandardCharsets.UTF_8);
        syms.add(
            new ElfSym(
                name, b.getLong((int) e + 8), b.getLong((int) e + 16), info >>> 4, info & 0xf));
      }
    }
    return syms;
  }

  /**
   * The symbols objdump names addresses with: every symbol in .text (not section, file or mapping
   * symbols), one per address chosen as objdump's compare_symbols orders aliases (functions, then
   * non-local, then global over weak, then larger, then by name), each reaching to the next symbol
   * so that lookup finds the nearest preceding one as objdump does. Our SymbolTable deliberately
   * prefers the friendlier alias ({@code printf}, not {@code _IO_printf}) for fault reports, so the
   * comparison is about formatting, not about which alias to show.
   */
  static SymbolTable objdumpSymbols(byte[] bytes, Section text) {
    List<ElfSym> syms = new ArrayList<>();
    for (ElfSym s : elfSymbols(bytes)) {
      if (s.type() != 3
          && s.type() != 4
          && s.value() >= text.addr
          && s.value() < text.addr + text.size
          && !s.name().isEmpty()
          && !s.name().startsWith("$")) { // not SECTION, FILE, or RISC-V mapping symbols
        syms.add(s);
      }
    }
    Comparator<ElfSym> objdumpOrder =
        Comparator.comparingLong(ElfSym::value)
            .thenComparing(s -> s.type() != 2) // STT_FUNC first
            .thenComparing(s -> s.bind() == 0) // STB_LOCAL last
            .thenComparing(s -> s.bind() != 1) // STB_GLOBAL before STB_WEAK
            .thenComparing(Comparator.comparingLong(ElfSym::size).reversed())
            .thenComparing(s -> s.name().startsWith("."))
            .thenComparing(ElfSym::name);
    syms.sort(objdumpOrder);
    List<Symbol> out = new ArrayList<>();
    for (int i = 0; i < syms.size(); i++) {
      ElfSym s = syms.get(i);
      if (!out.isEmpty() && out.get(out.size() - 1).address() == s.value()) {
        continue;
      }
      long next = text.addr + text.size;
      for (int j = i + 1; j < syms.size(); j++) {
        if (syms.get(j).value() != s.value()) {
          next = syms.get(j).value();
          break;
        }
      }
      out.add(new Symbol(s.name(), s.value(), next - s.value()));
    }
    return new SymbolTable(out);
  }

  /** A section by name from the ELF section headers (ElfFile keeps only what loading needs). */
  static Section section(byte[] bytes, String name) {
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    long shoff = b.getLong(40);
    int shentsize = b.getShort(58) & 0xffff;
    int shnum = b.getShort(60) & 0xffff;
    int shstrndx = b.getShort(62) & 0xffff;
    long strOff = b.getLong((int) (shoff + (long) shstrndx * shentsize) + 24);
    for (int i = 0; i < shnum; i++) {
      int o = (int) (shoff + (long) i * shentsize);
      int n = (int) strOff + b.getInt(o);
      int end = n;
      while (bytes[end] != 0) {
        end++;
      }
      if (new String(bytes, n, end - n, StandardCharsets.UTF_8).equals(name)) {
        return new Section(b.getLong(o + 16), b.getLong(o + 24), b.getLong(o + 32));
      }
    }
    throw new IllegalArgumentException("no section " + name);
  }
}
