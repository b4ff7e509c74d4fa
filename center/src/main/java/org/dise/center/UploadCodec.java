package org.dise.center;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;
import org.dise.runtime.sink.ProfileTable;

/**
 * The upload format on the wire (spec/remote.md): one JSON object per part, gzip-compressed.
 * Reading checks everything a center stores, so that a malformed part is refused whole (400), a
 * part of another format version is refused (415), and nothing half-read reaches the store.
 */
public final class UploadCodec {
  private UploadCodec() {}

  static final ObjectMapper JSON = new ObjectMapper();
  static final Pattern DEVICE = Upload.DEVICE_NAME;
  static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
  static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{8,64}");
  static final Pattern INTEGER = Pattern.compile("-?(0|[1-9][0-9]*)");

  /**
   * Whether {@code s} is an integer as {@link #INTEGER} says ({@code -?(0|[1-9][0-9]*)}), without a
   * regex: every cell of every row is classified so, and the matcher objects were the largest cost
   * of decoding a part (docs/benchmarks.md, "Optimization center").
   */
  static boolean isInteger(String s) {
    int n = s.length();
    int i = n > 0 && s.charAt(0) == '-' ? 1 : 0;
    if (i == n) {
      return false;
    }
    char first = s.charAt(i);
    if (first == '0') {
      return i + 1 == n;
    }
    if (first < '1' || first > '9') {
      return false;
    }
    for (int k = i + 1; k < n; k++) {
      char c = s.charAt(k);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  /** The part as uncompressed JSON. */
  public static byte[] json(Upload u) {
    ObjectNode o = JSON.createObjectNode();
    o.put("version", Upload.VERSION);
    o.put("upload_id", u.uploadId());
    o.put("part", u.part());
    o.put("last", u.last());
    o.put("device", u.device());
    ObjectNode p = o.putObject("program");
    p.put("name", u.programName());
    p.put("sha256", u.programSha256());
    o.put("config_hash", u.configHash());
    Upload.Figures f = u.figures();
    ObjectNode fig = o.putObject("figures");
    fig.put("intervals", f.intervals());
    fig.put("sampled_intervals", f.sampledIntervals());
    fig.put("instructions", f.instructions());
    fig.put("sampled_instructions", f.sampledInstructions());
    fig.put("interval", f.interval());
    if (f.exitStatus() != null) {
      fig.put("exit_status", f.exitStatus());
    }
    ArrayNode profiles = o.putArray("profiles");
    for (Upload.SinkProfile s : u.profiles()) {
      ObjectNode n = profiles.addObject();
      n.put("sink", s.sink());
      ProfileTable t = s.table();
      t.header().forEach(n.putArray("columns")::add);
      t.key().forEach(n.putArray("key")::add);
      n.put("weight", t.weight());
      ArrayNode rows = n.putArray("rows");
      for (List<String> r : t.rows()) {
        ArrayNode row = rows.addArray();
        r.forEach(row::add);
      }
    }
    ArrayNode phases = o.putArray("phases");
    for (Upload.PhaseReport ph : u.phases()) {
      ObjectNode n =
          phase(
              phases.addObject(),
              ph.localPhase(),
              ph.signature(),
              ph.intervals(),
              ph.instructions(),
              ph.sampledIntervals(),
              ph.sampledInstructions());
      ObjectNode w = n.putObject("weights");
      ph.weights()
          .forEach(
              (sink, m) -> {
                ObjectNode sn = w.putObject(sink);
                m.forEach(sn::put);
              });
    }
    ArrayNode trace = o.putArray("trace");
    u.trace().forEach(trace::add);
    try {
      return JSON.writeValueAsBytes(o);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** gzip of {@code data}. */
  public static byte[] gzip(byte[] data) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(data.length / 4 + 64);
    try (GZIPOutputStream z = new GZIPOutputStream(out)) {
      z.write(data);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /**
   * Reads a gzip-compressed part of at most {@code maxJson} bytes once uncompressed.
   *
   * @throws UploadException as {@link #read(InputStream, Limits)}
   */
  public static Upload read(byte[] gzipped, long maxJson) throws UploadException {
    return read(new ByteArrayInputStream(gzipped), new Limits(maxJson, Limits.DEFAULT_MEMORY));
  }

  /**
   * What reading one part may cost: its uncompressed JSON bytes, and the heap its decoded form may
   * hold (estimated per string, row and number: {@link UploadReader}). A part over either is
   * refused (413) as soon as the reader gets there, so a request never holds more than {@code
   * memory} bytes of decoded part plus the parser's largest token ({@link #MAX_TOKEN}).
   */
  public record Limits(long json, long memory) {
    /** The decoded-part budget when none is given: 32 MiB. */
    public static final long DEFAULT_MEMORY = 32L << 20;
  }

  /** The longest single JSON token (string or number) the reader takes: 1 MiB. */
  public static final int MAX_TOKEN = 1 << 20;

  /**
   * Reads a gzip-compressed part from {@code gzipped} as a stream: decompressed, parsed and checked
   * token by token (no whole-body buffer, no JSON tree), so that a part over a limit is refused
   * before the memory is spent.
   *
   * @throws UploadException 400 for a truncated, malformed or inconsistent part, 413 when it
   *     uncompresses to more than {@code limits.json()} bytes or decodes to more than {@code
   *     limits.memory()}, 415 for another format version, 422 for a count that is negative or does
   *     not fit 63 bits
   */
  public static Upload read(InputStream gzipped, Limits limits) throws UploadException {
    try (InputStream in = new Capped(new GZIPInputStream(gzipped, 8192), limits.json())) {
      return new UploadReader(in, limits.memory()).read();
    } catch (EOFException e) {
      throw new UploadException(400, "truncated body: the gzip stream ends early");
    } catch (ZipException e) {
      throw new UploadException(400, "body is not gzip-compressed JSON: " + e.getMessage());
    } catch (IOException e) {
      if (e.getCause() instanceof UploadException u) {
        throw u;
      }
      throw new UploadException(400, "cannot read the body: " + e.getMessage());
    }
  }

  /** {@code n} with a phase's number, signature and counts, as uploads and the center write it. */
  static ObjectNode phase(
      ObjectNode n,
      int phase,
      double[] signature,
      long intervals,
      long instructions,
      long sampledIntervals,
      long sampledInstructions) {
    n.put("phase", phase);
    ArrayNode sig = n.putArray("signature");
    for (double d : signature) {
      sig.add(d);
    }
    n.put("intervals", intervals);
    n.put("instructions", instructions);
    n.put("sampled_intervals", sampledIntervals);
    n.put("sampled_instructions", sampledInstructions);
    return n;
  }

  /** An uncompressed stream refused (413) past {@code max} bytes, checked while reading. */
  private static final class Capped extends MeteredInputStream {
    private final long max;
    private long total;

    Capped(InputStream in, long max) {
      super(in);
      this.max = max;
    }

    @Override
    protected void counted(int n) throws IOException {
      total += n;
      if (total > max) {
        // Checked while reading: a small body that inflates without end is refused early.
        throw new IOException(
            new UploadException(
                413,
                "upload uncompresses to more than "
                    + max
                    + " bytes (the center's --max-uncompressed limit)"));
      }
    }
  }

  /** Parses a non-negative count that must fit 63 bits; 422 otherwise (spec/remote.md). */
  /** Whether an {@link #isInteger} text is a count: not negative, and at most 2^63-1. */
  static boolean isCount(String integer) {
    int n = integer.length();
    return integer.charAt(0) != '-'
        && (n < 19 || (n == 19 && integer.compareTo("9223372036854775807") <= 0));
  }

  static long count(String text, String where) throws UploadException {
    if (!isInteger(text)) {
      throw new UploadException(400, where + ": `" + text + "` is not an integer");
    }
    long v;
    try {
      v = Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new UploadException(
          422, where + ": " + text + " does not fit 63 bits (the largest count is 2^63-1)");
    }
    if (v < 0) {
      throw new UploadException(422, where + ": " + text + " is negative; counts are >= 0");
    }
    return v;
  }

  private static byte[] gunzip(byte[] gz, long max) throws UploadException {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(1024, gz.length * 4));
      byte[] buf = new byte[16384];
      long total = 0;
      int n;
      while ((n = in.read(buf)) > 0) {
        total += n;
        if (total > max) {
          throw new UploadException(413, "upload uncompresses to more than " + max + " bytes");
        }
        out.write(buf, 0, n);
      }
      return out.toByteArray();
    } catch (EOFException e) {
      throw new UploadException(400, "truncated body: the gzip stream ends early");
    } catch (ZipException e) {
      throw new UploadException(400, "body is not gzip-compressed JSON: " + e.getMessage());
    } catch (IOException e) {
      throw new UploadException(400, "cannot read the body: " + e.getMessage());
    }
  }

  /** The uncompressed JSON of a part (for tests that damage it). */
  public static byte[] gunzipForTests(byte[] gz) throws UploadException {
    return gunzip(gz, Long.MAX_VALUE);
  }
}
