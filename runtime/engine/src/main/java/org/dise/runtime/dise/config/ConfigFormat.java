package org.dise.runtime.dise.config;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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

/**
 * Writes and reads deployable configurations: magic, version, payload length, payload, CRC-32 of
 * the payload. The layout is documented byte by byte in {@code spec/config-format.md}; keep the two
 * in step and bump {@link #VERSION} on any change to the payload.
 */
public final class ConfigFormat {
  private ConfigFormat() {}

  /** "DISECFG" and a newline: recognisable in a hex dump, and rejects text files early. */
  public static final byte[] MAGIC = "DISECFG\n".getBytes(StandardCharsets.US_ASCII);

  public static final int VERSION = 4;

  /**
   * The oldest version this runtime still reads: version 3 only added an entry kind (calls that
   * return a value), version 4 the provenance and program symbols.
   */
  public static final int OLDEST_READABLE = 2;

  /** Magic, version (u16) and payload length (u32). */
  public static final int HEADER = MAGIC.length + 2 + 4;

  public static final int TRAILER = 4;

  /** The file's bytes. */
  public static byte[] toBytes(DeployableConfig config) {
    ByteArrayOutputStream payload = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(payload)) {
      writePayload(out, config);
    } catch (IOException e) {
      throw new IllegalStateException(e); // a byte array does not fail
    }
    byte[] p = payload.toByteArray();
    CRC32 crc = new CRC32();
    crc.update(p);
    ByteBuffer b = ByteBuffer.allocate(HEADER + p.length + TRAILER);
    b.put(MAGIC).putShort((short) VERSION).putInt(p.length).put(p).putInt((int) crc.getValue());
    return b.array();
  }

  /**
   * Writes {@code config} to {@code file}, replacing it whole (temporary file and rename); a
   * configuration this runtime would refuse on reading is not written.
   */
  public static void write(DeployableConfig config, Path file) throws IOException {
    byte[] bytes = toBytes(config);
    try {
      fromBytes(bytes, "");
    } catch (ConfigException e) {
      throw new IOException(
          "the runtime would refuse this configuration ("
              + e.getMessage().replaceFirst("^: ", "")
              + "); nothing was written");
    }
    org.dise.runtime.io.AtomicFiles.write(file, bytes);
  }

  /** The largest configuration file read (the payload's length field is 32 bits anyway). */
  public static final long MAX_FILE = 64L << 20;

  /** Reads {@code file}; every refusal is one line naming the file and the problem. */
  public static DeployableConfig read(Path file) throws ConfigException {
    byte[] bytes;
    try {
      if (Files.exists(file) && !Files.isRegularFile(file)) {
        throw new ConfigException(file + ": not a regular file, so not a configuration");
      }
      if (Files.exists(file) && Files.size(file) > MAX_FILE) {
        throw new ConfigException(
            String.format(
                "%s: %,d bytes, larger than any configuration" + " (at most %,d)",
                file, Files.size(file), MAX_FILE));
      }
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new ConfigException(file + ": no such file");
    } catch (IOException e) {
      throw new ConfigException(file + ": cannot read: " + e.getMessage());
    }
    return fromBytes(bytes, file.toString());
  }

  /** Parses a configuration's bytes; {@code name} is used in messages. */
  public static DeployableConfig fromBytes(byte[] bytes, String name) throws ConfigException {
    int m = Math.min(bytes.length, MAGIC.length);
    for (int i = 0; i < m; i++) {
      if (bytes[i] != MAGIC[i]) {
        throw new ConfigException(name + ": not a DISE configuration (wrong magic number)");
      }
    }
    if (bytes.length < HEADER) {
      throw new ConfigException(
          String.format(
              "%s: truncated: %d bytes, shorter than the %d-byte" + " header",
              name, bytes.length, HEADER));
    }
    ByteBuffer b = ByteBuffer.wrap(bytes);
    int version = b.getShort(MAGIC.length) & 0xffff;
    if (version < OLDEST_READABLE || version > VERSION) {
      throw new ConfigException(
          String.format(
              "%s: format version %d is not supported (this" + " runtime reads versions %d to %d)",
              name, version, OLDEST_READABLE, VERSION));
    }
    long length = b.getInt(MAGIC.length + 2) & 0xffffffffL;
    long expected = HEADER + length + TRAILER;
    if (bytes.length < expected) {
      throw new ConfigException(
          String.format(
              "%s: truncated: %d bytes, the header announces %d", name, bytes.length, expected));
    }
    if (bytes.length > expected) {
      throw new ConfigException(
          String.format("%s: corrupt: %d bytes after the checksum", name, bytes.length - expected));
    }
    CRC32 crc = new CRC32();
    crc.update(bytes, HEADER, (int) length);
    long stored = b.getInt(HEADER + (int) length) & 0xffffffffL;
    if (stored != crc.getValue()) {
      throw new ConfigException(
          String.format(
              "%s: corrupt: checksum mismatch (stored %08x," + " computed %08x)",
              name, stored, crc.getValue()));
    }
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes, HEADER, (int) length));
    try {
      DeployableConfig c = readPayload(in, version);
      if (in.available() > 0) {
        throw new Malformed(in.available() + " unread bytes at the end of the payload");
      }
      // The same sentences as the compiler's (spec/config-format.md).
      List<String> problems = c.productions().budget().violations(c.productions());
      if (!problems.isEmpty()) {
        throw new ConfigException(
            name
                + ": the production set does not fit the hardware budget: "
                + String.join("; ", problems));
      }
      return c;
    } catch (EOFException e) {
      throw new ConfigException(name + ": malformed: the payload ends early");
    } catch (Malformed | IllegalArgumentException | IOException e) {
      throw new ConfigException(name + ": malformed: " + e.getMessage());
    }
  }

  /** A well-checksummed payload that does not describe a production set (a writer bug). */
  private static final class Malformed extends Exception {
    Malformed(String message) {
      super(message, null, false, false);
    }
  }

  // ---- payload, in file order --------------------------------------------------------------

  private static void writePayload(DataOutputStream out, DeployableConfig config)
      throws IOException {
    ProductionSet s = config.productions();
    out.writeUTF(config.source());
    DeployableConfig.Provenance prov = config.provenance();
    out.writeUTF(prov.compilerVersion());
    out.writeShort(prov.sources().size());
    for (DeployableConfig.SourceHash h : prov.sources()) {
      out.writeUTF(h.path());
      out.writeUTF(h.sha256());
    }
    HardwareBudget h = s.budget();
    for (int v :
        new int[] {
          h.patternEntries(),
          h.replacementEntries(),
          h.replacementEntryBytes(),
          h.conditionalEntries(),
          h.counters(),
          h.hpsRegisters(),
          h.diseRegisters(),
          h.maxCounterWidth()
        }) {
      out.writeInt(v);
    }
    out.writeInt(s.stallCycles());
    out.writeShort(s.counters().size());
    for (CounterSpec c : s.counters()) {
      out.writeInt(c.index());
      out.writeInt(c.width());
      out.writeLong(c.init());
    }
    out.writeShort(s.hpsRegisters().size());
    for (long r : s.hpsRegisters()) {
      out.writeLong(r);
    }
    out.writeShort(s.sinks().size());
    for (SinkBinding k : s.sinks()) {
      out.writeUTF(k.name());
      out.writeUTF(k.component());
      out.writeLong(k.cost());
      writeParams(out, k.params());
    }
    out.writeShort(s.triggers().size());
    for (TriggerBinding t : s.triggers()) {
      out.writeUTF(t.name());
      out.writeUTF(t.component());
      writeParams(out, t.params());
    }
    out.writeShort(s.replacements().size());
    for (ReplacementSequence r : s.replacements()) {
      out.writeUTF(r.name());
      out.writeShort(r.body().size());
      for (ReplacementInsn i : r.body()) {
        writeInsn(out, i);
      }
    }
    out.writeShort(s.productions().size());
    for (Production p : s.productions()) {
      out.writeUTF(p.name());
      out.writeInt(p.acf());
      writeExpr(out, p.pattern());
      out.writeByte(p.control().size());
      for (MicroOp op : p.control()) {
        out.writeByte(op.kind().ordinal());
        out.writeInt(op.counter());
        out.writeBoolean(op.fromRegister());
        out.writeLong(op.source());
      }
      out.writeInt(p.replacement());
      out.writeInt(p.tag());
    }
  }

  private static DeployableConfig readPayload(DataInputStream in, int version)
      throws IOException, Malformed {
    String source = in.readUTF();
    DeployableConfig.Provenance provenance = DeployableConfig.Provenance.UNKNOWN;
    if (version >= 4) {
      String compiler = in.readUTF();
      List<DeployableConfig.SourceHash> hashes = new ArrayList<>();
      for (int n = in.readUnsignedShort(); n > 0; n--) {
        hashes.add(new DeployableConfig.SourceHash(in.readUTF(), in.readUTF()));
      }
      provenance = new DeployableConfig.Provenance(compiler, hashes);
    }
    HardwareBudget budget =
        new HardwareBudget(
            in.readInt(),
            in.readInt(),
            in.readInt(),
            in.readInt(),
            in.readInt(),
            in.readInt(),
            in.readInt(),
            in.readInt());
    int stall = in.readInt();
    List<CounterSpec> counters = new ArrayList<>();
    for (int n = in.readUnsignedShort(); n > 0; n--) {
      counters.add(new CounterSpec(in.readInt(), in.readInt(), in.readLong()));
    }
    List<Long> registers = new ArrayList<>();
    for (int n = in.readUnsignedShort(); n > 0; n--) {
      registers.add(in.readLong());
    }
    List<SinkBinding> sinks = new ArrayList<>();
    for (int n = in.readUnsignedShort(); n > 0; n--) {
      sinks.add(new SinkBinding(in.readUTF(), in.readUTF(), in.readLong(), readParams(in)));
    }
    List<TriggerBinding> triggers = new ArrayList<>();
    for (int n = in.readUnsignedShort(); n > 0; n--) {
      triggers.add(new TriggerBinding(in.readUTF(), in.readUTF(), readParams(in)));
    }
    List<ReplacementSequence> replacements = new ArrayList<>();
    for (int n = in.readUnsignedShort(); n > 0; n--) {
      String name = in.readUTF();
      List<ReplacementInsn> body = new ArrayList<>();
      for (int k = in.readUnsignedShort(); k > 0; k--) {
        body.add(readInsn(in));
      }
      replacements.add(new ReplacementSequence(name, body));
    }
    List<Production> productions = new ArrayList<>();
    for (int n = in.readUnsignedShort(); n > 0; n--) {
      String name = in.readUTF();
      int acf = in.readInt();
      PatternExpr pattern = readExpr(in, 0);
      List<MicroOp> control = new ArrayList<>();
      for (int k = in.readUnsignedByte(); k > 0; k--) {
        control.add(
            new MicroOp(
                enumAt(MicroOp.Kind.values(), in.readUnsignedByte(), "micro-op"),
                in.readInt(),
                in.readBoolean(),
                in.readLong()));
      }
      int replacement = in.readInt();
      if (replacement < -1 || replacement >= replacements.size()) {
        throw new Malformed(
            "production "
                + name
                + " names replacement "
                + replacement
                + " of "
                + replacements.size());
      }
      int tag = in.readInt();
      if (tag < -1 || tag >= sinks.size()) {
        throw new Malformed("production " + name + " tags for sink " + tag + " of " + sinks.size());
      }
      productions.add(new Production(name, acf, pattern, control, replacement, tag));
    }
    ProductionSet set =
        new ProductionSet(
            productions, replacements, counters, registers, sinks, triggers, stall, budget);
    checkRanges(set);
    return new DeployableConfig(source, set, provenance);
  }

  /** The most any budget field may claim: the runtime sizes its tables by them. */
  private static final int MAX_BUDGET = 1 << 16;

  /**
   * Every index the runtime will follow must name something that exists, and the set must fit its
   * own budget, as {@code acf compile} checked before writing: a payload whose checksum was
   * recomputed after a change is refused here, not by an index error while running.
   */
  private static void checkRanges(ProductionSet set) throws Malformed {
    HardwareBudget b = set.budget();
    int[] fields = {
      b.patternEntries(),
      b.replacementEntries(),
      b.replacementEntryBytes(),
      b.conditionalEntries(),
      b.counters(),
      b.hpsRegisters(),
      b.diseRegisters()
    };
    for (int f : fields) {
      if (f < 0 || f > MAX_BUDGET) {
        throw new Malformed(
            "a hardware budget field of " + f + " (allowed: 0.." + MAX_BUDGET + ")");
      }
    }
    if (b.maxCounterWidth() < 1 || b.maxCounterWidth() > 64) {
      throw new Malformed("counters " + b.maxCounterWidth() + " bits wide (allowed: 1..64)");
    }
    if (set.stallCycles() < 0) {
      throw new Malformed("a negative stall of " + set.stallCycles() + " cycles");
    }
    for (CounterSpec c : set.counters()) {
      if (c.index() < 0 || c.index() >= b.counters()) {
        throw new Malformed("counter " + c.index() + " of " + b.counters());
      }
    }
    for (PatternExpr.Flag f : set.flagInputs()) {
      if (f.counter() < 0 || f.counter() >= b.counters()) {
        throw new Malformed(
            "a pattern reads the flag of counter " + f.counter() + " of " + b.counters());
      }
    }
    for (Production p : set.productions()) {
      for (MicroOp op : p.control()) {
        if (op.counter() < 0 || op.counter() >= b.counters()) {
          throw new Malformed(
              "production "
                  + p.name()
                  + " updates counter "
                  + op.counter()
                  + " of "
                  + b.counters());
        }
        if (op.fromRegister() && (op.source() < 0 || op.source() >= set.hpsRegisters().size())) {
          throw new Malformed(
              "production "
                  + p.name()
                  + " reads HPS register "
                  + op.source()
                  + " of "
                  + set.hpsRegisters().size());
        }
      }
    }
    for (ReplacementSequence r : set.replacements()) {
      for (ReplacementInsn i : r.body()) {
        if (i instanceof ReplacementInsn.Call c) {
          if (c.sink() >= set.sinks().size()) {
            throw new Malformed(
                "replacement "
                    + r.name()
                    + " calls sink "
                    + c.sink()
                    + " of "
                    + set.sinks().size());
          }
          for (ReplacementInsn.CallArg a : c.args()) {
            checkSlot(r, a.slot());
          }
        } else if (i instanceof ReplacementInsn.Insn n) {
          for (Slot sl : List.of(n.rd(), n.rs1(), n.rs2(), n.rs3(), n.imm())) {
            checkSlot(r, sl);
          }
        } else if (i instanceof ReplacementInsn.LoadImmediate li) {
          checkSlot(r, li.rd());
          checkSlot(r, li.value());
        }
      }
    }
  }

  private static void checkSlot(ReplacementSequence r, Slot s) throws Malformed {
    long limit =
        switch (s.kind()) {
          case CONST, SYMBOL -> Long.MAX_VALUE;
          case XREG, FREG -> 32;
          case DISE -> org.dise.runtime.cpu.Cpu.DISE_REGS;
          case FIELD -> InsnField.values().length;
        };
    if (s.kind() != Slot.Kind.CONST
        && s.kind() != Slot.Kind.SYMBOL
        && (s.value() < 0 || s.value() >= limit)) {
      throw new Malformed(
          "replacement "
              + r.name()
              + " names "
              + s.kind().name().toLowerCase(java.util.Locale.ROOT)
              + " "
              + s.value()
              + " (allowed: 0.."
              + (limit - 1)
              + ")");
    }
  }

  private static void writeParams(DataOutputStream out, Map<String, String> params)
      throws IOException {
    out.writeShort(params.size());
    for (Map.Entry<String, String> e : new TreeMap<>(params).entrySet()) {
      out.writeUTF(e.getKey());
      out.writeUTF(e.getValue());
    }
  }

  private static Map<String, String> readParams(DataInputStream in) throws IOException {
    Map<String, String> out = new TreeMap<>();
    for (int n = in.readUnsignedShort(); n > 0; n--) {
      out.put(in.readUTF(), in.readUTF());
    }
    return out;
  }

  private static final int INSN_ORIGINAL = 0;
  private static final int INSN_CALL = 1;
  private static final int INSN_BASE = 2;
  private static final int INSN_LI = 3;

  /** Version 3: {@code $drN = call(...)}, a call with a result register. */
  private static final int INSN_CALL_RESULT = 4;

  private static void writeInsn(DataOutputStream out, ReplacementInsn r) throws IOException {
    if (r instanceof ReplacementInsn.Original) {
      out.writeByte(INSN_ORIGINAL);
    } else if (r instanceof ReplacementInsn.Call c) {
      out.writeByte(c.returns() ? INSN_CALL_RESULT : INSN_CALL);
      out.writeShort(c.sink());
      out.writeByte(c.args().size());
      for (ReplacementInsn.CallArg a : c.args()) {
        out.writeBoolean(a.insn());
        writeSlot(out, a.slot());
      }
      if (c.returns()) {
        writeSlot(out, c.result());
      }
    } else if (r instanceof ReplacementInsn.Insn i) {
      out.writeByte(INSN_BASE);
      out.writeUTF(i.op().name());
      for (Slot s : List.of(i.rd(), i.rs1(), i.rs2(), i.rs3(), i.imm())) {
        writeSlot(out, s);
      }
      out.writeInt(i.rm());
      out.writeInt(i.target());
    } else {
      ReplacementInsn.LoadImmediate li = (ReplacementInsn.LoadImmediate) r;
      out.writeByte(INSN_LI);
      writeSlot(out, li.rd());
      writeSlot(out, li.value());
    }
  }

  private static ReplacementInsn readInsn(DataInputStream in) throws IOException, Malformed {
    int tag = in.readUnsignedByte();
    switch (tag) {
      case INSN_ORIGINAL:
        return new ReplacementInsn.Original();
      case INSN_CALL:
      case INSN_CALL_RESULT:
        {
          int sink = in.readUnsignedShort();
          List<ReplacementInsn.CallArg> args = new ArrayList<>();
          for (int n = in.readUnsignedByte(); n > 0; n--) {
            boolean insn = in.readBoolean();
            args.add(new ReplacementInsn.CallArg(readSlot(in), insn));
          }
          return new ReplacementInsn.Call(
              sink, args, tag == INSN_CALL_RESULT ? readSlot(in) : Slot.NONE);
        }
      case INSN_BASE:
        {
          Op op = Op.valueOf(in.readUTF());
          return new ReplacementInsn.Insn(
              op,
              readSlot(in),
              readSlot(in),
              readSlot(in),
              readSlot(in),
              readSlot(in),
              in.readInt(),
              in.readInt());
        }
      case INSN_LI:
        return new ReplacementInsn.LoadImmediate(readSlot(in), readSlot(in));
      default:
        throw new Malformed("unknown replacement instruction tag " + tag);
    }
  }

  private static void writeSlot(DataOutputStream out, Slot s) throws IOException {
    out.writeByte(s.kind().ordinal());
    out.writeLong(s.value());
    if (s.kind() == Slot.Kind.SYMBOL) {
      writeSymbol(out, s.symbol());
    }
  }

  private static Slot readSlot(DataInputStream in) throws IOException, Malformed {
    Slot.Kind kind = enumAt(Slot.Kind.values(), in.readUnsignedByte(), "slot kind");
    long value = in.readLong();
    // Version 2 has no symbol slots; its files cannot hold the ordinal, so one check serves.
    return kind == Slot.Kind.SYMBOL ? new Slot(kind, value, readSymbol(in)) : new Slot(kind, value);
  }

  private static void writeSymbol(DataOutputStream out, SymbolRef r) throws IOException {
    out.writeUTF(r.name());
    out.writeBoolean(r.end());
    out.writeUTF(r.origin());
  }

  private static SymbolRef readSymbol(DataInputStream in) throws IOException, Malformed {
    String name = in.readUTF();
    boolean end = in.readBoolean();
    String origin = in.readUTF();
    if (name.isEmpty()) {
      throw new Malformed("a program symbol without a name");
    }
    return new SymbolRef(name, end, origin);
  }

  private static final int EXPR_CONST = 0;
  private static final int EXPR_FIELD = 1;
  private static final int EXPR_OP = 2;
  private static final int EXPR_CLASS = 3;
  private static final int EXPR_FLAG = 4;
  private static final int EXPR_UNARY = 5;
  private static final int EXPR_BINARY = 6;
  private static final int EXPR_SYMBOL = 7;

  /** Deeper patterns than this are refused rather than overflowing the reader's stack. */
  private static final int MAX_DEPTH = 1000;

  private static void writeExpr(DataOutputStream out, PatternExpr e) throws IOException {
    if (e instanceof PatternExpr.Const c) {
      out.writeByte(EXPR_CONST);
      out.writeLong(c.value());
    } else if (e instanceof PatternExpr.Field f) {
      out.writeByte(EXPR_FIELD);
      out.writeUTF(f.field().name());
    } else if (e instanceof PatternExpr.OpIs o) {
      out.writeByte(EXPR_OP);
      out.writeUTF(o.mnemonic());
    } else if (e instanceof PatternExpr.ClassIs c) {
      out.writeByte(EXPR_CLASS);
      out.writeUTF(c.opClass().name());
    } else if (e instanceof PatternExpr.Flag f) {
      out.writeByte(EXPR_FLAG);
      out.writeBoolean(f.overflow());
      out.writeInt(f.counter());
    } else if (e instanceof PatternExpr.SymbolAddr y) {
      out.writeByte(EXPR_SYMBOL);
      writeSymbol(out, y.ref());
    } else if (e instanceof PatternExpr.Unary u) {
      out.writeByte(EXPR_UNARY);
      out.writeUTF(u.op().name());
      writeExpr(out, u.operand());
    } else {
      PatternExpr.Binary b = (PatternExpr.Binary) e;
      out.writeByte(EXPR_BINARY);
      out.writeUTF(b.op().name());
      writeExpr(out, b.left());
      writeExpr(out, b.right());
    }
  }

  private static PatternExpr readExpr(DataInputStream in, int depth) throws IOException, Malformed {
    if (depth > MAX_DEPTH) {
      throw new Malformed("a pattern nested deeper than " + MAX_DEPTH);
    }
    int tag = in.readUnsignedByte();
    return switch (tag) {
      case EXPR_CONST -> new PatternExpr.Const(in.readLong());
      case EXPR_FIELD -> new PatternExpr.Field(InsnField.valueOf(in.readUTF()));
      case EXPR_OP -> new PatternExpr.OpIs(in.readUTF());
      case EXPR_CLASS -> new PatternExpr.ClassIs(OpClass.valueOf(in.readUTF()));
      case EXPR_FLAG -> new PatternExpr.Flag(in.readBoolean(), in.readInt());
      case EXPR_UNARY ->
          new PatternExpr.Unary(PatternExpr.UnaryOp.valueOf(in.readUTF()), readExpr(in, depth + 1));
      case EXPR_BINARY ->
          new PatternExpr.Binary(
              PatternExpr.BinaryOp.valueOf(in.readUTF()),
              readExpr(in, depth + 1),
              readExpr(in, depth + 1));
      case EXPR_SYMBOL -> new PatternExpr.SymbolAddr(readSymbol(in));
      default -> throw new Malformed("unknown pattern tag " + tag);
    };
  }

  private static <E> E enumAt(E[] values, int ordinal, String what) throws Malformed {
    if (ordinal >= values.length) {
      throw new Malformed("unknown " + what + " " + ordinal);
    }
    return values[ordinal];
  }
}
