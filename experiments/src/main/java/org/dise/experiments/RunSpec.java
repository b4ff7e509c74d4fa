package org.dise.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * One run of an experiment's plan, everything it depends on written out: what it does ({@code
 * kind}, e.g. {@code overhead.run}), the program and its arguments ({@code --programs}' form) and
 * the program file's SHA-256, and its settings (the ACF text, variant, trigger, seed, ...). A run
 * is a pure function of its specification, so a result can be computed anywhere (another process, a
 * cluster node) and reused by every plan that holds the same specification: its {@link #id} hashes
 * nothing else (not the experiment or the index), so that {@code energy} reuses {@code overhead}'s
 * runs written into the same directory.
 *
 * @param label a human description for progress lines, not part of the identity
 */
public record RunSpec(
    String kind, String program, String programSha256, Map<String, String> settings, String label) {
  public RunSpec {
    settings = java.util.Collections.unmodifiableMap(new TreeMap<>(settings));
  }

  /** The specification as canonical JSON (sorted keys, no label): what {@link #id} hashes. */
  public ObjectNode toJson() {
    ObjectNode n = Results.MAPPER.createObjectNode();
    n.put("kind", kind);
    n.put("program", program);
    n.put("program_sha256", programSha256);
    ObjectNode s = n.putObject("settings");
    settings.forEach(s::put);
    return n;
  }

  /** The specification read back from {@link #toJson} (or a plan line: extra fields ignored). */
  public static RunSpec fromJson(JsonNode n) {
    Map<String, String> s = new TreeMap<>();
    n.path("settings").fields().forEachRemaining(e -> s.put(e.getKey(), e.getValue().asText()));
    return new RunSpec(
        n.path("kind").asText(),
        n.path("program").asText(),
        n.path("program_sha256").asText(),
        s,
        n.path("label").asText(""));
  }

  /** The first 16 hex digits of the SHA-256 of {@link #toJson}: the result's file name. */
  public String id() {
    try {
      byte[] d =
          MessageDigest.getInstance("SHA-256")
              .digest(Results.canonical(toJson()).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The experiment whose {@code execute} runs it: the kind's first word. */
  public String experiment() {
    int dot = kind.indexOf('.');
    return dot < 0 ? kind : kind.substring(0, dot);
  }

  public String setting(String name) {
    String v = settings.get(name);
    if (v == null) {
      throw new ExperimentException("run " + kind + " " + program + ": no setting `" + name + "`");
    }
    return v;
  }
}
