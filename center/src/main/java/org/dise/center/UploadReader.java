package org.dise.center;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.dise.runtime.sink.ProfileTable;

/**
 * Decodes one upload part from its JSON token stream (spec/remote.md): every field checked as it
 * arrives, fields in any order, unknown fields skipped without being kept, and the heap the decoded
 * part holds estimated as it grows, so that a part too large to hold is refused (413) when it gets
 * there rather than after it was read whole. Counts are non-negative and fit 63 bits, else 422.
 */
final class UploadReader {
  private static final JsonFactory JSON =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxStringLength(UploadCodec.MAX_TOKEN)
                  .maxNumberLength(64)
                  .maxNestingDepth(32)
                  .build())
          .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .build();

  // Heap estimates (64-bit JVM, compressed references; generous): a String with its array, a
  // row's list, a boxed number in a map entry.
  private static final int STRING = 48;
  private static final int ROW = 48;
  private static final int ENTRY = 80;

  private final JsonParser p;
  private final long budget;
  private long used;

  UploadReader(InputStream in, long budget) throws IOException {
    this.p = JSON.createParser(in);
    this.budget = budget;
  }

  Upload read() throws UploadException, IOException {
    try {
      return part();
    } catch (StreamConstraintsException e) {
      throw new UploadException(
          413, "a string, number or nesting in the upload is over the center's limit");
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
    }
  }

  private Upload part() throws UploadException, IOException {
    if (p.nextToken() != JsonToken.START_OBJECT) {
      throw new UploadException(400, "an upload is a JSON object");
    }
    Integer version = null;
    String id = null;
    Integer part = null;
    boolean last = false;
    String device = null;
    String name = null;
    String sha = null;
    String config = null;
    Upload.Figures figures = null;
    List<Upload.SinkProfile> profiles = new ArrayList<>();
    List<Upload.PhaseReport> phases = new ArrayList<>();
    List<Integer> trace = new ArrayList<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      p.nextToken();
      switch (field) {
        case "version" -> version = version();
        case "upload_id" -> id = text("upload_id", UploadCodec.ID);
        case "part" -> part = (int) bounded("part", 1_000_000);
        case "last" -> {
          if (!p.currentToken().isBoolean()) {
            throw new UploadException(400, "`last` is not true or false");
          }
          last = p.getBooleanValue();
        }
        case "device" -> device = text("device", UploadCodec.DEVICE);
        case "program" -> {
          expect(JsonToken.START_OBJECT, "program");
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            p.nextToken();
            switch (f) {
              case "name" -> name = text("name", null);
              case "sha256" -> sha = text("sha256", UploadCodec.SHA256);
              default -> p.skipChildren();
            }
          }
        }
        case "config_hash" -> config = text("config_hash", null);
        case "figures" -> figures = figures();
        case "profiles" -> {
          expectArray("profiles");
          while (p.nextToken() != JsonToken.END_ARRAY) {
            profiles.add(profile(profiles.size()));
          }
        }
        case "phases" -> {
          expectArray("phases");
          while (p.nextToken() != JsonToken.END_ARRAY) {
            phases.add(phase(phases.size()));
          }
        }
        case "trace" -> {
          expectArray("trace");
          while (p.nextToken() != JsonToken.END_ARRAY) {
            if (p.currentToken() != JsonToken.VALUE_NUMBER_INT
                || p.getNumberType() != JsonParser.NumberType.INT) {
              throw new UploadException(
                  400, "trace: entry " + trace.size() + " is not a phase of this part");
            }
            charge(16);
            trace.add(p.getIntValue());
          }
        }
        default -> p.skipChildren();
      }
    }
    if (p.currentToken() != JsonToken.END_OBJECT) {
      throw new UploadException(400, "malformed JSON: the upload's object does not end");
    }
    if (p.nextToken() != null) {
      throw new UploadException(400, "content after the upload's JSON object");
    }
    if (version == null) {
      throw new UploadException(
          400, "`version` is missing (this center reads version " + Upload.VERSION + ")");
    }
    need(id, "upload_id");
    need(part, "part");
    need(device, "device");
    need(name, "name");
    need(sha, "sha256");
    need(config, "config_hash");
    if (figures == null) {
      throw new UploadException(400, "`figures` is missing or not an object");
    }
    Map<Integer, Integer> byLocal = new LinkedHashMap<>();
    for (Upload.PhaseReport r : phases) {
      if (byLocal.put(r.localPhase(), byLocal.size()) != null) {
        throw new UploadException(400, "phases: phase " + r.localPhase() + " appears twice");
      }
      if (phases.get(0).signature().length != r.signature().length) {
        throw new UploadException(400, "phases: signatures differ in length");
      }
    }
    for (int i = 0; i < trace.size(); i++) {
      int t = trace.get(i);
      if (t != -1 && !byLocal.containsKey(t)) {
        throw new UploadException(
            400, "trace: entry " + i + " (" + t + ") is not a phase of this part");
      }
    }
    return new Upload(id, part, last, device, name, sha, config, figures, profiles, phases, trace);
  }

  /** 415 for the version at the parser, {@code why} said after the version this center reads. */
  private UploadException unsupportedVersion(String why) throws IOException {
    return new UploadException(
        415,
        "upload format version "
            + p.getText()
            + " is not supported (this center reads version "
            + Upload.VERSION
            + why
            + ")");
  }

  private int version() throws UploadException, IOException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_NUMBER_FLOAT) {
      throw unsupportedVersion(", an integer");
    }
    if (t != JsonToken.VALUE_NUMBER_INT) {
      throw new UploadException(
          400, "`version` is missing (this center reads version " + Upload.VERSION + ")");
    }
    if (p.getNumberType() != JsonParser.NumberType.INT || p.getIntValue() != Upload.VERSION) {
      throw unsupportedVersion("");
    }
    return p.getIntValue();
  }

  private Upload.Figures figures() throws UploadException, IOException {
    expect(JsonToken.START_OBJECT, "figures");
    long[] v = new long[5];
    boolean[] seen = new boolean[5];
    Integer exit = null;
    List<String> names =
        List.of(
            "intervals", "sampled_intervals", "instructions", "sampled_instructions", "interval");
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String f = p.currentName();
      p.nextToken();
      int i = names.indexOf(f);
      if (i >= 0) {
        v[i] = count("figures." + f);
        seen[i] = true;
      } else if (f.equals("exit_status")) {
        exit = (int) bounded("exit_status", 255);
      } else {
        p.skipChildren();
      }
    }
    for (int i = 0; i < 5; i++) {
      if (!seen[i]) {
        throw new UploadException(
            400, "`" + names.get(i) + "` is missing or not an integer from 0 to " + Long.MAX_VALUE);
      }
    }
    return new Upload.Figures(v[0], v[1], v[2], v[3], v[4], exit);
  }

  private Upload.SinkProfile profile(int index) throws UploadException, IOException {
    String where = "profiles[" + index + "]";
    expect(JsonToken.START_OBJECT, where);
    String sink = null;
    List<String> columns = null;
    List<String> key = null;
    String weight = null;
    List<List<String>> rows = new ArrayList<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String f = p.currentName();
      p.nextToken();
      switch (f) {
        case "sink" -> sink = text("sink", UploadCodec.DEVICE);
        case "columns" -> columns = strings(where + ": `columns`");
        case "key" -> key = strings(where + ": `key`");
        case "weight" -> weight = text("weight", null);
        case "rows" -> {
          expectArray(where + ": `rows`");
          while (p.nextToken() != JsonToken.END_ARRAY) {
            if (p.currentToken() != JsonToken.START_ARRAY) {
              throw new UploadException(
                  400, where + ": row " + (rows.size() + 1) + " is not an array of cells");
            }
            List<String> cells = new ArrayList<>();
            while (p.nextToken() != JsonToken.END_ARRAY) {
              if (p.currentToken() != JsonToken.VALUE_STRING) {
                throw new UploadException(
                    400, where + ": row " + (rows.size() + 1) + " has a cell that is not a string");
              }
              cells.add(string());
            }
            charge(ROW + 8L * cells.size());
            rows.add(List.copyOf(cells));
          }
        }
        default -> p.skipChildren();
      }
    }
    need(sink, "sink");
    need(weight, "weight");
    if (columns == null) {
      columns = List.of();
    }
    if (key == null) {
      key = List.of();
    }
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
    for (int r = 0; r < rows.size(); r++) {
      List<String> cells = rows.get(r);
      // The row's place is spelled out only for a refusal: this loop sees every cell.
      if (cells.size() != columns.size()) {
        throw new UploadException(
            400, row(where, sink, r) + " does not have " + columns.size() + " cells");
      }
      if (!UploadCodec.isInteger(cells.get(w))) {
        throw new UploadException(
            400, row(where, sink, r) + ": weight `" + cells.get(w) + "` is not an integer");
      }
      for (int c = 0; c < cells.size(); c++) {
        // Every integer cell is a count the center sums (ProfileMerge).
        String cell = cells.get(c);
        if (UploadCodec.isInteger(cell) && !UploadCodec.isCount(cell)) {
          UploadCodec.count(cell, row(where, sink, r) + ", " + columns.get(c));
        }
      }
    }
    return new Upload.SinkProfile(sink, new ProfileTable(columns, rows, key, weight));
  }

  /** Where row {@code r} (from 0) of {@code sink}'s profile is, for a refusal. */
  private static String row(String where, String sink, int r) {
    return where + " (" + sink + "): row " + (r + 1);
  }

  private Upload.PhaseReport phase(int index) throws UploadException, IOException {
    String where = "phases[" + index + "]";
    expect(JsonToken.START_OBJECT, where);
    Integer local = null;
    double[] sig = null;
    long[] v = new long[4];
    boolean[] seen = new boolean[4];
    List<String> names =
        List.of("intervals", "instructions", "sampled_intervals", "sampled_instructions");
    Map<String, Map<String, Long>> weights = new LinkedHashMap<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String f = p.currentName();
      p.nextToken();
      int i = names.indexOf(f);
      if (i >= 0) {
        v[i] = count(where + "." + f);
        seen[i] = true;
        continue;
      }
      switch (f) {
        case "phase" -> local = (int) bounded("phase", Integer.MAX_VALUE);
        case "signature" -> {
          if (p.currentToken() != JsonToken.START_ARRAY) {
            throw new UploadException(400, where + ": `signature` must be 1 to 4096 numbers");
          }
          double[] s = new double[64];
          int n = 0;
          while (p.nextToken() != JsonToken.END_ARRAY) {
            if (!p.currentToken().isNumeric() || n >= 4096) {
              throw new UploadException(400, where + ": `signature` must be 1 to 4096 numbers");
            }
            double d = p.getDoubleValue();
            if (!(d >= 0 && d <= 1)) {
              throw new UploadException(400, where + ": signature[" + n + "] must be in [0, 1]");
            }
            if (n == s.length) {
              s = java.util.Arrays.copyOf(s, s.length * 2);
            }
            s[n++] = d;
          }
          if (n == 0) {
            throw new UploadException(400, where + ": `signature` must be 1 to 4096 numbers");
          }
          charge(16 + 8L * n);
          sig = java.util.Arrays.copyOf(s, n);
        }
        case "weights" -> {
          if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new UploadException(400, where + ": `weights` must be an object");
          }
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String sink = string();
            if (p.nextToken() != JsonToken.START_OBJECT) {
              throw new UploadException(400, where + ": weights of " + sink + " must be an object");
            }
            Map<String, Long> m = new LinkedHashMap<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
              String k = string();
              p.nextToken();
              charge(ENTRY);
              m.put(k, count(where + ": weight of " + k));
            }
            weights.put(sink, m);
          }
        }
        default -> p.skipChildren();
      }
    }
    if (local == null) {
      throw new UploadException(
          400, "`phase` is missing or not an integer from 0 to " + Integer.MAX_VALUE);
    }
    if (sig == null) {
      throw new UploadException(400, where + ": `signature` must be 1 to 4096 numbers");
    }
    for (int i = 0; i < 4; i++) {
      if (!seen[i]) {
        throw new UploadException(
            400, "`" + names.get(i) + "` is missing or not an integer from 0 to " + Long.MAX_VALUE);
      }
    }
    return new Upload.PhaseReport(local, sig, v[0], v[1], v[2], v[3], weights);
  }

  /** A count: a JSON integer, non-negative, at most 2^63-1 (else 422: spec/remote.md). */
  private long count(String where) throws UploadException, IOException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_NUMBER_INT) {
      return UploadCodec.count(p.getText(), where);
    }
    if (t == JsonToken.VALUE_NUMBER_FLOAT) {
      throw new UploadException(422, where + ": " + p.getText() + " is not a whole count");
    }
    throw new UploadException(
        400, "`" + where + "` is missing or not an integer from 0 to " + Long.MAX_VALUE);
  }

  private long bounded(String field, long max) throws UploadException, IOException {
    if (p.currentToken() != JsonToken.VALUE_NUMBER_INT
        || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
        || p.getLongValue() < 0
        || p.getLongValue() > max) {
      throw new UploadException(
          400, "`" + field + "` is missing or not an integer from 0 to " + max);
    }
    return p.getLongValue();
  }

  private String text(String field, Pattern form) throws UploadException, IOException {
    if (p.currentToken() != JsonToken.VALUE_STRING
        || p.getTextLength() == 0
        || p.getTextLength() > 4096) {
      throw new UploadException(400, "`" + field + "` is missing or not a string");
    }
    String s = string();
    if (form != null && !form.matcher(s).matches()) {
      throw new UploadException(
          400,
          "`"
              + field
              + "` is malformed: "
              + CenterLog.escape(s)
              + " (expected "
              + form.pattern()
              + ")");
    }
    return s;
  }

  private List<String> strings(String where) throws UploadException, IOException {
    expectArray(where);
    List<String> out = new ArrayList<>();
    while (p.nextToken() != JsonToken.END_ARRAY) {
      if (p.currentToken() != JsonToken.VALUE_STRING) {
        throw new UploadException(400, where + " must hold strings");
      }
      out.add(string());
    }
    return out;
  }

  /** The current string token, its heap charged. */
  private String string() throws UploadException, IOException {
    String s = p.getText();
    charge(STRING + 2L * s.length());
    return s;
  }

  private void charge(long bytes) throws UploadException {
    used += bytes;
    if (used > budget) {
      throw new UploadException(
          413,
          "upload decodes to more than "
              + budget
              + " bytes of memory (the center's --max-part-memory limit)");
    }
  }

  private void expect(JsonToken t, String field) throws UploadException {
    if (p.currentToken() != t) {
      throw new UploadException(400, "`" + field + "` is missing or not an object");
    }
  }

  private void expectArray(String field) throws UploadException {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw new UploadException(400, "`" + field + "` is not an array");
    }
  }

  private static void need(Object value, String field) throws UploadException {
    if (value == null) {
      throw new UploadException(400, "`" + field + "` is missing or not a string");
    }
  }
}
