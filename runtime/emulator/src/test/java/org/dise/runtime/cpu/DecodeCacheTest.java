package org.dise.runtime.cpu;

import static com.google.common.truth.Truth.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dise.runtime.linux.LinuxKernel;
import org.dise.runtime.linux.Sandbox;
import org.dise.runtime.mem.Memory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The decode cache stays coherent with memory: code written after it was decoded (by the guest or
 * from outside) is what runs next, and unmapped code faults.
 */
class DecodeCacheTest {
  private static final long CODE = 0x10000;
  private static final int RWX = Memory.PROT_READ | Memory.PROT_WRITE | Memory.PROT_EXEC;

  private static final int ECALL = 0x00000073;

  private final Memory mem = new Memory();

  /** a0 at every ecall. */
  private final List<Long> seen = new ArrayList<>();

  private Cpu cpu;

  @BeforeEach
  void setUp() {
    mem.map(CODE, 2 * Memory.PAGE_SIZE, RWX);
    cpu = new Cpu(mem, c -> seen.add(c.x[10]));
    cpu.pc = CODE;
  }

  /** addi a0, zero, imm */
  private static int li(int imm) {
    return (imm << 20) | (10 << 7) | 0x13;
  }

  /** jal zero, offset */
  private static int j(int offset) {
    int o = offset;
    return ((o >>> 20 & 1) << 31)
        | ((o >>> 1 & 0x3ff) << 21)
        | ((o >>> 11 & 1) << 20)
        | ((o >>> 12 & 0xff) << 12)
        | 0x6f;
  }

  /** sw rs2, 0(rs1) */
  private static int sw(int rs2, int rs1) {
    return (rs2 << 20) | (rs1 << 15) | (2 << 12) | 0x23;
  }

  private void put(long addr, int... words) {
    for (int i = 0; i < words.length; i++) {
      int w = words[i];
      mem.poke(
          addr + 4L * i,
          new byte[] {(byte) w, (byte) (w >>> 8), (byte) (w >>> 16), (byte) (w >>> 24)},
          0,
          4);
    }
  }

  @Test
  void externalWriteToDecodedCodeIsSeen() {
    put(CODE, li(1), ECALL, j(-8));
    assertThat(cpu.run(3)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(seen).containsExactly(1L);
    mem.sw(CODE, li(2)); // a write with permission checks, as a guest store or the kernel does
    cpu.run(3);
    assertThat(seen).containsExactly(1L, 2L).inOrder();
  }

  @Test
  void guestStoreIntoItsOwnCodeIsSeen() {
    cpu.x[5] = CODE; // t0
    cpu.x[6] = li(2); // t1
    put(CODE, li(1), ECALL, sw(6, 5), j(-12));
    cpu.run(6);
    assertThat(seen).containsExactly(1L, 2L).inOrder();
  }

  @Test
  void storeIntoTheCurrentBlockAheadOfThePcIsSeen() {
    // The store patches the very next instruction, in the same straight-line run.
    cpu.x[5] = CODE + 8;
    cpu.x[6] = li(7);
    put(CODE, li(1), sw(6, 5), li(3), ECALL, j(-16));
    cpu.run(4);
    assertThat(seen).containsExactly(7L);
  }

  @Test
  void fenceIAfterAPatchRunsTheNewCode() {
    put(CODE, li(1), ECALL, 0x0000100f /* fence.i */, j(-12));
    cpu.run(2);
    mem.poke(
        CODE,
        new byte[] {
          (byte) li(5), (byte) (li(5) >>> 8), (byte) (li(5) >>> 16), (byte) (li(5) >>> 24)
        },
        0,
        4); // poke bypasses the write listener
    cpu.run(4); // fence.i, j, then the patched li and ecall
    assertThat(seen).containsExactly(1L, 5L).inOrder();
  }

  @Test
  void compressedPatchOverA32BitInstruction() {
    put(CODE, li(1), ECALL, j(-8));
    cpu.run(2);
    // c.li a0, 9 followed by c.nop, in place of the 4-byte li.
    mem.sw(CODE, 0x0001_4525);
    cpu.run(4);
    assertThat(seen).containsExactly(1L, 9L).inOrder();
  }

  @Test
  void instructionStraddlingAPageIsInvalidatedByAWriteToEitherPage() {
    long at = CODE + Memory.PAGE_SIZE - 2; // a 4-byte li across the boundary
    put(CODE, j(Memory.PAGE_SIZE - 2));
    mem.sh(at, li(1));
    mem.sh(at + 2, li(1) >>> 16);
    put(at + 4, ECALL, j(-8));
    cpu.run(3);
    assertThat(seen).containsExactly(1L);
    mem.sh(at + 2, li(4) >>> 16); // only the half on the second page changes
    cpu.run(3);
    assertThat(seen).containsExactly(1L, 4L).inOrder();
  }

  @Test
  void unmappedCodeFaultsEvenWhenDecoded() {
    put(CODE, li(1), ECALL, j(-8));
    cpu.run(3);
    mem.unmap(CODE, Memory.PAGE_SIZE);
    assertThat(cpu.run(3)).isEqualTo(StopReason.FAULT);
    assertThat(cpu.fault().signal()).isEqualTo(GuestFault.SIGSEGV);
    assertThat(cpu.fault().pc()).isEqualTo(CODE);
  }

  @Test
  void mprotectRemovingExecMakesDecodedCodeFault() {
    LinuxKernel kernel =
        new LinuxKernel(
            mem,
            new Sandbox(Path.of("").toAbsolutePath()),
            new PrintStream(new ByteArrayOutputStream()),
            "test",
            1);
    put(CODE, li(1), ECALL, j(-8));
    cpu.run(3);
    cpu.x[17] = 226; // mprotect(CODE, page, PROT_READ | PROT_WRITE)
    cpu.x[10] = CODE;
    cpu.x[11] = Memory.PAGE_SIZE;
    cpu.x[12] = Memory.PROT_READ | Memory.PROT_WRITE;
    kernel.ecall(cpu);
    assertThat(cpu.x[10]).isEqualTo(0);
    assertThat(cpu.run(3)).isEqualTo(StopReason.FAULT);
    assertThat(cpu.fault().signal()).isEqualTo(GuestFault.SIGSEGV);
  }

  /**
   * A library mapped with MAP_FIXED over code that ran, interpreted and translated (the dynamic
   * linker reusing an address after dlclose): the new file's instructions run, and the mapping is
   * reported to the file map listener.
   */
  @Test
  void fileMappedOverTranslatedCodeRunsTheNewCode(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    byte[] a = new byte[Memory.PAGE_SIZE];
    byte[] b = new byte[Memory.PAGE_SIZE];
    int[] codeA = {li(1), ECALL, j(-8)};
    int[] codeB = {li(2), ECALL, j(-8)};
    for (int i = 0; i < 3; i++) {
      java.nio.ByteBuffer.wrap(a).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(4 * i, codeA[i]);
      java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(4 * i, codeB[i]);
    }
    java.nio.file.Files.write(dir.resolve("a.so"), a);
    java.nio.file.Files.write(dir.resolve("b.so"), b);
    LinuxKernel kernel =
        new LinuxKernel(
            mem, new Sandbox(dir), new PrintStream(new ByteArrayOutputStream()), "test", 1);
    List<String> mapped = new ArrayList<>();
    kernel.setFileMapListener(
        (file, addr, off) -> mapped.add(file.getFileName() + String.format("@%x+%d", addr, off)));
    Cpu c =
        new Cpu(
            mem,
            k -> {
              if (k.x[17] == 0) {
                seen.add(k.x[10]);
              } else {
                kernel.ecall(k);
              }
            });
    c.setBlockCompiler(new BlockCompiler(new PrintStream(new ByteArrayOutputStream())), 1);
    long data = CODE + Memory.PAGE_SIZE;
    for (String name : List.of("a.so", "b.so")) {
      mem.poke(data, (name + "\0").getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, 5);
      c.x[17] = 56; // openat(AT_FDCWD, name, O_RDONLY)
      c.x[10] = -100;
      c.x[11] = data;
      c.x[12] = 0;
      kernel.ecall(c);
      long fd = c.x[10];
      assertThat(fd).isAtLeast(3L);
      c.x[17] = 222; // mmap(CODE, page, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_FIXED, fd, 0)
      c.x[10] = CODE;
      c.x[11] = Memory.PAGE_SIZE;
      c.x[12] = Memory.PROT_READ | Memory.PROT_EXEC;
      c.x[13] = 0x02 | 0x10;
      c.x[14] = fd;
      c.x[15] = 0;
      kernel.ecall(c);
      assertThat(c.x[10]).isEqualTo(CODE);
      c.pc = CODE;
      c.x[17] = 0; // the test's own "ecall": record a0
      c.run(300); // a hundred rounds: the loop is translated and chained
    }
    assertThat(seen.subList(0, 100)).containsNoneOf(2L, 0L);
    assertThat(seen.get(seen.size() - 1)).isEqualTo(2L);
    assertThat(seen.stream().filter(v -> v == 2L).count()).isAtLeast(99L);
    assertThat(mapped)
        .containsExactly(String.format("a.so@%x+0", CODE), String.format("b.so@%x+0", CODE))
        .inOrder();
  }
}
