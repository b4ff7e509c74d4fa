package org.dise.runtime.dise.config;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import org.dise.runtime.dise.CounterSpec;
import org.dise.runtime.dise.HardwareBudget;
import org.dise.runtime.dise.InsnField;
import org.dise.runtime.dise.MicroOp;
import org.dise.runtime.dise.PatternExpr;
import org.dise.runtime.dise.Production;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ReplacementInsn;
import org.dise.runtime.dise.ReplacementSequence;
import org.dise.runtime.dise.Slot;
import org.dise.runtime.dise.SymbolRef;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.OpClass;
import org.dise.runtime.sink.SinkBinding;
import org.dise.runtime.trigger.TriggerBinding;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The deployable configuration format: an exact round trip, and each refusal's message. */
class ConfigFormatTest {
  /** A set that uses every kind of pattern node, replacement entry, slot and binding. */
  static ProductionSet everything() {
    PatternExpr z0 = new PatternExpr.Flag(false, 0);
    PatternExpr o1 = new PatternExpr.Flag(true, 1);
    PatternExpr pattern =
        new PatternExpr.Binary(
            PatternExpr.BinaryOp.OR,
            new PatternExpr.Binary(
                PatternExpr.BinaryOp.AND,
                new PatternExpr.ClassIs(OpClass.STORE),
                new PatternExpr.Unary(PatternExpr.UnaryOp.NOT, o1)),
            new PatternExpr.Binary(
                PatternExpr.BinaryOp.GT,
                new PatternExpr.Field(InsnField.PC),
                new PatternExpr.Binary(
                    PatternExpr.BinaryOp.ADD,
                    new PatternExpr.Const(-5),
                    new PatternExpr.Unary(
                        PatternExpr.UnaryOp.COMPLEMENT, new PatternExpr.Field(InsnField.TARGET)))));
    PatternExpr inFunction =
        new PatternExpr.Binary(
            PatternExpr.BinaryOp.LT,
            new PatternExpr.Field(InsnField.PC),
            new PatternExpr.SymbolAddr(new SymbolRef("sum_hot", true, "a.acf:2:20")));
    List<Production> productions =
        List.of(
            new Production(
                "P0",
                0,
                new PatternExpr.OpIs("on_trig_inst"),
                List.of(MicroOp.setFromRegister(0, 0)),
                -1),
            new Production(
                "W",
                0,
                pattern,
                List.of(MicroOp.inc(1), MicroOp.dec(2), MicroOp.setConstant(3, -7)),
                0),
            new Production(
                "P3",
                1,
                new PatternExpr.Binary(
                    PatternExpr.BinaryOp.AND, new PatternExpr.ClassIs(OpClass.PROC_CALL), z0),
                List.of(),
                1),
            new Production("Tag", 1, new PatternExpr.ClassIs(OpClass.LOAD), List.of(), -1, 0),
            new Production("Sym", 1, inFunction, List.of(), -1));
    ReplacementSequence check =
        new ReplacementSequence(
            "Check",
            List.of(
                new ReplacementInsn.Insn(
                    Op.ADDI,
                    Slot.dise(0),
                    Slot.field(InsnField.RS1),
                    Slot.NONE,
                    Slot.NONE,
                    Slot.field(InsnField.IMM),
                    0,
                    -1),
                new ReplacementInsn.LoadImmediate(Slot.dise(1), Slot.constant(0x123456789L)),
                new ReplacementInsn.LoadImmediate(
                    Slot.dise(1), Slot.symbol(new SymbolRef("hot table", false, ""))),
                new ReplacementInsn.Insn(
                    Op.BLTU, Slot.NONE, Slot.dise(0), Slot.dise(1), Slot.NONE, Slot.NONE, 0, 5),
                new ReplacementInsn.Insn(
                    Op.EBREAK, Slot.NONE, Slot.NONE, Slot.NONE, Slot.NONE, Slot.NONE, 0, -1),
                new ReplacementInsn.Original()));
    ReplacementSequence r3 =
        new ReplacementSequence(
            "R3",
            List.of(
                new ReplacementInsn.Call(
                    0,
                    List.of(
                        new ReplacementInsn.CallArg(Slot.NONE, true),
                        new ReplacementInsn.CallArg(Slot.x(10), false),
                        new ReplacementInsn.CallArg(Slot.f(3), false),
                        new ReplacementInsn.CallArg(Slot.field(InsnField.PC), false),
                        new ReplacementInsn.CallArg(
                            Slot.symbol(new SymbolRef("buf.1", true, "b:1:1")), false))),
                new ReplacementInsn.Original()));
    return new ProductionSet(
        productions,
        List.of(check, r3),
        List.of(new CounterSpec(0, 16, 1), new CounterSpec(1, 3, 5)),
        List.of(0L, 1L, -1L),
        List.of(
            new SinkBinding(
                "CallPair_handler",
                "call_pair_counter",
                40,
                Map.of("cost", "40", "key", "caller,callee"))),
        List.of(new TriggerBinding("every", "periodic", Map.of("interval", "10M"))),
        2,
        new HardwareBudget(32, 2048, 8, 16, 8, 8, 8, 32));
  }

  static final DeployableConfig.Provenance PROVENANCE =
      new DeployableConfig.Provenance(
          "acf 0.1.0 (abc1234)",
          List.of(
              new DeployableConfig.SourceHash(
                  "everything.acf",
                  "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")));

  static byte[] good() {
    return ConfigFormat.toBytes(new DeployableConfig("everything.acf", everything(), PROVENANCE));
  }

  @Test
  void roundTripGivesTheSameProductionSet() throws Exception {
    DeployableConfig back = ConfigFormat.fromBytes(good(), "x.dcfg");
    assertThat(back.source()).isEqualTo("everything.acf");
    assertThat(back.productions()).isEqualTo(everything());
    assertThat(back.provenance()).isEqualTo(PROVENANCE);
    // Program symbols stay names, with the place that wrote them, until a program is loaded.
    assertThat(back.productions().symbols())
        .containsExactly(
            new SymbolRef("sum_hot", true, "a.acf:2:20"),
            new SymbolRef("hot table", false, ""),
            new SymbolRef("buf.1", true, "b:1:1"))
        .inOrder();
    assertThat(ConfigFormat.toBytes(back)).isEqualTo(good()); // deterministic
  }

  @Test
  void aVersion2FileFromTheEarlierWriterIsStillRead() throws Exception {
    // Written by `acf compile examples/acf/hot_call_pairs.acf` before versions 3 and 4.
    byte[] old = getClass().getResourceAsStream("/config/hot_call_pairs.v2.dcfg").readAllBytes();
    assertThat(ByteBuffer.wrap(old).getShort(8)).isEqualTo((short) 2);
    DeployableConfig c = ConfigFormat.fromBytes(old, "old.dcfg");
    assertThat(c.source()).isEqualTo("hot_call_pairs.acf");
    assertThat(c.provenance()).isEqualTo(DeployableConfig.Provenance.UNKNOWN);
    assertThat(c.productions().productions()).hasSize(3);
    assertThat(c.productions().productions().get(2).name()).isEqualTo("P3");
    assertThat(c.productions().sinks().get(0).component()).isEqualTo("call_pair_counter");
    assertThat(c.productions().symbols()).isEmpty();
    // Written again, it is a version 4 file of the same set.
    DeployableConfig again = ConfigFormat.fromBytes(ConfigFormat.toBytes(c), "new.dcfg");
    assertThat(again.productions()).isEqualTo(c.productions());
  }

  @Test
  void headerIsMagicVersionLengthAndTheTrailerTheCrcOfThePayload() {
    byte[] b = good();
    assertThat(new String(b, 0, 8, java.nio.charset.StandardCharsets.US_ASCII))
        .isEqualTo("DISECFG\n");
    ByteBuffer buf = ByteBuffer.wrap(b);
    assertThat(buf.getShort(8)).isEqualTo((short) 4);
    int n = buf.getInt(10);
    assertThat(b.length).isEqualTo(14 + n + 4);
    CRC32 crc = new CRC32();
    crc.update(b, 14, n);
    assertThat(buf.getInt(14 + n)).isEqualTo((int) crc.getValue());
  }

  static String refusal(byte[] bytes) {
    return assertThrows(ConfigException.class, () -> ConfigFormat.fromBytes(bytes, "x.dcfg"))
        .getMessage();
  }

  @Test
  void wrongMagicIsRefused() {
    assertThat(refusal("hello, world\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII)))
        .isEqualTo("x.dcfg: not a DISE configuration (wrong magic number)");
  }

  @Test
  void wrongVersionIsRefused() {
    byte[] b = good();
    b[9] = 1;
    assertThat(refusal(b))
        .isEqualTo(
            "x.dcfg: format version 1 is not supported (this runtime reads versions 2 to" + " 4)");
    b[9] = 5;
    assertThat(refusal(b)).startsWith("x.dcfg: format version 5 is not supported");
  }

  @Test
  void truncatedFilesAreRefused() {
    byte[] b = good();
    assertThat(refusal(Arrays.copyOf(b, b.length - 10)))
        .isEqualTo(
            "x.dcfg: truncated: " + (b.length - 10) + " bytes, the header announces " + b.length);
    assertThat(refusal(Arrays.copyOf(b, 9)))
        .isEqualTo("x.dcfg: truncated: 9 bytes, shorter than the 14-byte header");
    assertThat(refusal(Arrays.copyOf(b, 0)))
        .isEqualTo("x.dcfg: truncated: 0 bytes, shorter than the 14-byte header");
  }

  @Test
  void aChangedByteFailsTheChecksum() {
    byte[] b = good();
    b[40] ^= 0x10;
    int n = ByteBuffer.wrap(b).getInt(10);
    CRC32 crc = new CRC32();
    crc.update(b, 14, n);
    assertThat(refusal(b))
        .isEqualTo(
            String.format(
                "x.dcfg: corrupt: checksum mismatch (stored %08x, computed %08x)",
                ByteBuffer.wrap(b).getInt(14 + n), crc.getValue()));
  }

  @Test
  void bytesAfterTheChecksumAreRefused() {
    byte[] b = good();
    assertThat(refusal(Arrays.copyOf(b, b.length + 3)))
        .isEqualTo("x.dcfg: corrupt: 3 bytes after the checksum");
  }

  @Test
  void aMissingFileIsNamed(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("none.dcfg");
    assertThat(assertThrows(ConfigException.class, () -> ConfigFormat.read(f)).getMessage())
        .isEqualTo(f + ": no such file");
    ConfigFormat.write(new DeployableConfig("e", everything()), f);
    assertThat(Files.size(f))
        .isEqualTo(ConfigFormat.toBytes(new DeployableConfig("e", everything())).length);
    assertThat(ConfigFormat.read(f).productions()).isEqualTo(everything());
  }
}
