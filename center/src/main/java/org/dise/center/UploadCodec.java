package org.dise.center;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{8,64}");
  private static final Pattern DEVICE = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
  private static final Pattern INTEGER = Pattern.compile("-?(0|[1-9][0-9]{0,18})");

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
      ObjectNode n = phases.addObject();
      n.put("phase", ph.localPhase());
      ArrayNode sig = n.putArray("signature");
      for (double d : ph.signature()) {
        sig.add(d);
      }
      n.put("intervals", ph.intervals());
      n.put("instructions", ph.instructions());
      n.put("sampled_intervals", ph.sampledIntervals());
      n.put("sampled_instructions", ph.sampledInstructions());
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
   * @throws UploadException 400 for a truncated, malformed or inconsistent part, 413 when it
   *     uncompresses to more than {@code maxJson} bytes, 415 for another format version
   */
  public static Upload read(byte[] gzipped, long maxJson) throws UploadException {
    byte[] json = gunzip(gzipped, maxJson);
    JsonNode o;
    try {
      o = JSON.readTree(json);
    } catch (JsonParseException e) {
      var l = e.getLocation();
      throw new UploadException(
          400,
          "malformed JSON at line "
              + l.getLineNr()
              + ", column "
              + l.getColumnNr()
              + ": "
              + e.getOriginalMessage());
    } catch (IOException e) {
      throw new UploadException(400, "malformed JSON: " + e.getMessage());
    }
    if (o == null || !o.isObject()) {
      throw new UploadException(400, "an upload is a JSON object");
    }
    JsonNode v = o.get("version");
    if (v == null || !v.canConvertToInt()) {
      throw new UploadException(
          400, "`version` is missing (this center reads version " + Upload.VERSION + ")");
    }
    if (v.asInt() != Upload.VERSION) {
      throw new UploadException(
          415,
          "upload format version "
              + v.asText()
              + " is not supported (this center reads version "
              + Upload.VERSION
              + ")");
    }
    String id = text(o, "upload_id", ID);
    int part = (int) number(o, "part", 0, 1_000_000);
    boolean last = o.path("last").asBoolean(false);
    String device = text(o, "device", DEVICE);
    JsonNode program = object(o, "program");
    String name = text(program, "name", null);
    String sha = text(program, "sha256", SHA256);
    String config = text(o, "config_hash", null);
    JsonNode fig = object(o, "figures");
    Upload.Figures figures =
        new Upload.Figures(
            number(fig, "intervals", 0, Long.MAX_VALUE),
            number(fig, "sampled_intervals", 0, Long.MAX_VALUE),
            number(fig, "instructions", 0, Long.MAX_VALUE),
            number(fig, "sampled_instructions", 0, Long.MAX_VALUE),
            number(fig, "interval", 0, Long.MAX_VALUE),
            fig.has("exit_status") ? (int) number(fig, "exit_status", 0, 255) : null);
    List<Upload.SinkProfile> profiles = new ArrayList<>();
    for (JsonNode p : array(o, "profiles")) {
      profiles.add(profile(p, profiles.size()));
    }
    List<Upload.PhaseReport> phases = new ArrayList<>();
    Map<Integer, Integer> byLocal = new LinkedHashMap<>();
    for (JsonNode p : array(o, "phases")) {
      Upload.PhaseReport r = phase(p, phases.size());
      if (byLocal.put(r.localPhase(), phases.size()) != null) {
        throw new UploadException(400, "phases: phase " + r.localPhase() + " appears twice");
      }
      if (!phases.isEmpty() && phases.get(0).signature().length != r.signature().length) {
        throw new UploadException(400, "phases: signatures differ in length");
      }
      phases.add(r);
    }
    List<Integer> trace = new ArrayList<>();
    for (JsonNode t : array(o, "trace")) {
      if (!t.canConvertToInt() || (t.asInt() != -1 && !byLocal.containsKey(t.asInt()))) {
        throw new UploadException(
            400, "trace: entry " + trace.size() + " (" + t + ") is not a phase of this part");
      }
      trace.add(t.asInt());
    }
    return new Upload(id, part, last, device, name, sha, config, figures, profiles, phases, trace);
  }

  private static Upload.SinkProfile profile(JsonNode p, int index) throws UploadException {
    String where = "profiles[" + index + "]";
    String sink = text(p, "sink", DEVICE);
    List<String> columns = strings(p, "columns", where);
    List<String> key = strings(p, "key", where);
    String weight = text(p, "weight", null);
    if (columns.isEmpty() || !columns.containsAll(key) || !columns.contains(weight)) {
      throw new UploadException(
          400,
          where
              + " ("
              + sink
              + "): key "
              + key
              + " and weight "
              + weight
              + " must be columns of "
              + columns);
    }
    int w = columns.indexOf(weight);
    List<List<String>> rows = new ArrayList<>();
    for (JsonNode r : array(p, "rows")) {
      if (!r.isArray() || r.size() != columns.size()) {
        throw new UploadException(
            400,
            where
                + " ("
                + sink
                + "): row "
                + (rows.size() + 1)
                + " does not have "
                + columns.size()
                + " cells");
      }
      List<String> cells = new ArrayList<>(columns.size());
      for (JsonNode c : r) {
        if (!c.isTextual()) {
          throw new UploadException(
              400,
              where
                  + " ("
                  + sink
                  + "): row "
                  + (rows.size() + 1)
                  + " has a cell that is not a string");
        }
        cells.add(c.asText());
      }
      if (!INTEGER.matcher(cells.get(w)).matches()) {
        throw new UploadException(
            400,
            where
                + " ("
                + sink
                + "): row "
                + (rows.size() + 1)
                + ": weight `"
                + cells.get(w)
                + "` is not an integer");
      }
      rows.add(cells);
    }
    return new Upload.SinkProfile(sink, new ProfileTable(columns, rows, key, weight));
  }

  private static Upload.PhaseReport phase(JsonNode p, int index) throws UploadException {
    String where = "phases[" + index + "]";
    int local = (int) number(p, "phase", 0, Integer.MAX_VALUE);
    JsonNode sig = p.get("signature");
    if (sig == null || !sig.isArray() || sig.isEmpty() || sig.size() > 4096) {
      throw new UploadException(400, where + ": `signature` must be 1 to 4096 numbers");
    }
    double[] s = new double[sig.size()];
    for (int i = 0; i < s.length; i++) {
      JsonNode d = sig.get(i);
      if (!d.isNumber() || !(d.asDouble() >= 0 && d.asDouble() <= 1)) {
        throw new UploadException(400, where + ": signature[" + i + "] must be in [0, 1]");
      }
      s[i] = d.asDouble();
    }
    Map<String, Map<String, Long>> weights = new LinkedHashMap<>();
    JsonNode w = p.path("weights");
    if (!w.isMissingNode() && !w.isObject()) {
      throw new UploadException(400, where + ": `weights` must be an object");
    }
    for (var e : (Iterable<Map.Entry<String, JsonNode>>) w::fields) {
      if (!e.getValue().isObject()) {
        throw new UploadException(400, where + ": weights of " + e.getKey() + " must be an object");
      }
      Map<String, Long> m = new LinkedHashMap<>();
      for (var k : (Iterable<Map.Entry<String, JsonNode>>) e.getValue()::fields) {
        if (!k.getValue().canConvertToLong() || !k.getValue().isIntegralNumber()) {
          throw new UploadException(
              400, where + ": weight of " + k.getKey() + " is not an integer");
        }
        m.put(k.getKey(), k.getValue().asLong());
      }
      weights.put(e.getKey(), m);
    }
    return new Upload.PhaseReport(
        local,
        s,
        number(p, "intervals", 0, Long.MAX_VALUE),
        number(p, "instructions", 0, Long.MAX_VALUE),
        number(p, "sampled_intervals", 0, Long.MAX_VALUE),
        number(p, "sampled_instructions", 0, Long.MAX_VALUE),
        weights);
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
          // Checked while reading: a small body that inflates without end is refused early.
          throw new UploadException(
              413,
              "upload uncompresses to more than "
                  + max
                  + " bytes (the center's --max-upload limit)");
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

  private static JsonNode object(JsonNode o, String field) throws UploadException {
    JsonNode n = o.get(field);
    if (n == null || !n.isObject()) {
      throw new UploadException(400, "`" + field + "` is missing or not an object");
    }
    return n;
  }

  private static JsonNode array(JsonNode o, String field) throws UploadException {
    JsonNode n = o.get(field);
    if (n == null) {
      return JSON.createArrayNode();
    }
    if (!n.isArray()) {
      throw new UploadException(400, "`" + field + "` is not an array");
    }
    return n;
  }

  private static List<String> strings(JsonNode o, String field, String where)
      throws UploadException {
    List<String> out = new ArrayList<>();
    for (JsonNode n : array(o, field)) {
      if (!n.isTextual()) {
        throw new UploadException(400, where + ": `" + field + "` must hold strings");
      }
      out.add(n.asText());
    }
    return out;
  }

  private static String text(JsonNode o, String field, Pattern form) throws UploadException {
    JsonNode n = o.get(field);
    if (n == null || !n.isTextual() || n.asText().isEmpty() || n.asText().length() > 4096) {
      throw new UploadException(400, "`" + field + "` is missing or not a string");
    }
    if (form != null && !form.matcher(n.asText()).matches()) {
      throw new UploadException(
          400,
          "`" + field + "` is malformed: " + n.asText() + " (expected " + form.pattern() + ")");
    }
    return n.asText();
  }

  private static long number(JsonNode o, String field, long min, long max) throws UploadException {
    JsonNode n = o.get(field);
    if (n == null
        || !n.isIntegralNumber()
        || !n.canConvertToLong()
        || n.asLong() < min
        || n.asLong() > max) {
      throw new UploadException(
          400, "`" + field + "` is missing or not an integer from " + min + " to " + max);
    }
    return n.asLong();
  }
}
