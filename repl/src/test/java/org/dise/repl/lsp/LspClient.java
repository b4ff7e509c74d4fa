package org.dise.repl.lsp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.dise.repl.AcfJvm;

/**
 * A test client that starts {@code acf lsp} in a JVM of its own and speaks JSON-RPC to it over its
 * stdin and stdout, framing each message with {@code Content-Length} as an editor does.
 */
final class LspClient implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();

  private final Process process;
  private final OutputStream in;
  private final BlockingQueue<JsonNode> received = new LinkedBlockingQueue<>();
  private final List<JsonNode> notifications = new ArrayList<>();
  private int nextId = 1;

  LspClient(Path root, Path cache) throws IOException {
    List<String> cmd = AcfJvm.command(List.of(), "lsp", "--stdio");
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(root.toFile())
            .redirectError(ProcessBuilder.Redirect.INHERIT);
    pb.environment().put("XDG_CACHE_HOME", cache.toString());
    process = pb.start();
    in = process.getOutputStream();
    Thread reader = new Thread(() -> readAll(process.getInputStream()), "lsp-reader");
    reader.setDaemon(true);
    reader.start();
  }

  private void readAll(InputStream out) {
    try {
      while (true) {
        int length = -1;
        StringBuilder header = new StringBuilder();
        while (true) {
          int c = out.read();
          if (c < 0) {
            return;
          }
          header.append((char) c);
          if (header.toString().endsWith("\r\n\r\n")) {
            break;
          }
        }
        for (String line : header.toString().split("\r\n")) {
          if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
            length = Integer.parseInt(line.substring(line.indexOf(':') + 1).strip());
          }
        }
        byte[] body = out.readNBytes(length);
        received.add(JSON.readTree(body));
      }
    } catch (IOException e) {
      // The server closed its output.
    }
  }

  void send(ObjectNode message) throws IOException {
    message.put("jsonrpc", "2.0");
    byte[] body = JSON.writeValueAsBytes(message);
    ByteArrayOutputStream framed = new ByteArrayOutputStream();
    framed.write(
        ("Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    framed.write(body);
    in.write(framed.toByteArray());
    in.flush();
  }

  /** Sends a request and returns its result, keeping the notifications that came before it. */
  JsonNode request(String method, Object params) throws Exception {
    int id = nextId++;
    ObjectNode m = JSON.createObjectNode();
    m.put("id", id);
    m.put("method", method);
    m.set("params", JSON.valueToTree(params));
    send(m);
    while (true) {
      JsonNode r = next();
      if (r.has("id") && r.get("id").asInt() == id && !r.has("method")) {
        if (r.has("error")) {
          throw new AssertionError(method + " failed: " + r.get("error"));
        }
        return r.get("result");
      }
      notifications.add(r);
    }
  }

  void notify(String method, Object params) throws IOException {
    ObjectNode m = JSON.createObjectNode();
    m.put("method", method);
    m.set("params", JSON.valueToTree(params));
    send(m);
  }

  /** The next notification with this method (earlier ones of other methods are kept). */
  JsonNode notification(String method) throws Exception {
    for (int i = 0; i < notifications.size(); i++) {
      if (notifications.get(i).path("method").asText().equals(method)) {
        return notifications.remove(i).get("params");
      }
    }
    while (true) {
      JsonNode r = next();
      if (r.path("method").asText().equals(method)) {
        return r.get("params");
      }
      notifications.add(r);
    }
  }

  private JsonNode next() throws InterruptedException {
    JsonNode r = received.poll(60, TimeUnit.SECONDS);
    if (r == null) {
      throw new AssertionError("no message from acf lsp within 60 s");
    }
    return r;
  }

  JsonNode initialize(Map<String, Object> options) throws Exception {
    JsonNode r =
        request(
            "initialize",
            Map.of(
                "processId",
                ProcessHandle.current().pid(),
                "capabilities",
                Map.of(),
                "initializationOptions",
                options));
    notify("initialized", Map.of());
    return r;
  }

  void open(String uri, String text) throws IOException {
    notify(
        "textDocument/didOpen",
        Map.of(
            "textDocument", Map.of("uri", uri, "languageId", "acf", "version", 1, "text", text)));
  }

  void change(String uri, int version, String text) throws IOException {
    notify(
        "textDocument/didChange",
        Map.of(
            "textDocument",
            Map.of("uri", uri, "version", version),
            "contentChanges",
            List.of(Map.of("text", text))));
  }

  static Map<String, Object> at(String uri, int line, int character) {
    return Map.of(
        "textDocument",
        Map.of("uri", uri),
        "position",
        Map.of("line", line, "character", character));
  }

  /** Shuts the server down as an editor does and returns its exit status. */
  int shutdown() throws Exception {
    request("shutdown", null);
    notify("exit", null);
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new AssertionError("acf lsp did not exit after `exit`");
    }
    return process.exitValue();
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
