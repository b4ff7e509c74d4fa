package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.xml.parsers.DocumentBuilderFactory;
import org.dise.repl.ConfigCommandTest.Result;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/**
 * {@code acf view} and {@code acf report --svg} on real runs of examples/programs/callstack.c: the
 * page is checked in a headless chromium (its DOM after the script ran, and a screenshot), the SVG
 * with an XML parser.
 */
class ViewCommandTest {
  static final String PROGRAM = CallingContextOutputTest.PROGRAM.toString();

  @TempDir static Path tmp;
  static Path run;
  static Path sampled;

  @BeforeAll
  static void runs() throws Exception {
    Path acf = ConfigCommandTest.ROOT.resolve("examples/acf/calling_context.acf");
    run = tmp.resolve("run");
    assertThat(ConfigCommandTest.runInto(acf.toString(), run, PROGRAM).status()).isEqualTo(0);
    sampled = tmp.resolve("sampled");
    assertThat(
            ConfigCommandTest.acf(
                    "run",
                    "--acf",
                    acf.toString(),
                    "--sampling",
                    "phase:first",
                    "--interval",
                    "40K",
                    "--out",
                    sampled.toString(),
                    PROGRAM)
                .status())
        .isEqualTo(0);
  }

  @Test
  void aSampledCallingContextChargesOnlyTheSampledIntervals() throws Exception {
    String summary = Files.readString(sampled.resolve("summary.json"));
    double fraction =
        Double.parseDouble(summary.replaceAll("(?s).*\"sampled_fraction\": ([0-9.]+).*", "$1"));
    long app =
        Long.parseLong(summary.replaceAll("(?s).*\"application_instructions\": (\\d+).*", "$1"));
    long charged =
        Files.readAllLines(sampled.resolve("CallingContext.folded")).stream()
            .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1)))
            .sum();
    assertThat(fraction).isGreaterThan(0.0);
    assertThat(fraction).isLessThan(0.5);
    assertThat((double) charged).isAtMost(fraction * app + 100);
    assertThat((double) charged).isAtLeast(fraction * app * 0.9);
  }

  @Test
  void viewWritesOneSelfContainedPage() throws Exception {
    Result r = ConfigCommandTest.acf("view", run.toString());
    assertThat(r.status()).isEqualTo(0);
    String html = Files.readString(run.resolve("index.html"));
    assertThat(r.stdout().trim()).isEqualTo(run.resolve("index.html").toString());
    // Nothing is fetched: no external script, style, image or font.
    assertThat(html).doesNotContainMatch("(src|href)=\"(https?:)?//");
    assertThat(html).doesNotContain("@import");
    assertThat(html).contains("\"name\": \"CallingContext\"");
    assertThat(html).contains("\"name\": \"CallPair_handler\"");
  }

  @Test
  void viewOfAMissingDirectoryIsAClearError() {
    Result r = ConfigCommandTest.acf("view", tmp.resolve("nope").toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.stderr()).contains("nope: no such run directory");
  }

  @Test
  void reportSvgWritesAFlameGraphPerStackedProfile() throws Exception {
    Result r = ConfigCommandTest.acf("report", "--svg", run.toString());
    assertThat(r.status()).isEqualTo(0);
    for (String name :
        List.of("CallingContext.svg", "CallingContext.cycles.svg", "CallPair_handler.svg")) {
      Document svg =
          DocumentBuilderFactory.newInstance()
              .newDocumentBuilder()
              .parse(new ByteArrayInputStream(Files.readAllBytes(run.resolve(name))));
      assertThat(svg.getDocumentElement().getTagName()).isEqualTo("svg");
      assertThat(svg.getElementsByTagName("rect").getLength()).isGreaterThan(3);
    }
    Document svg =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(run.resolve("CallingContext.svg").toFile());
    NodeList titles = svg.getElementsByTagName("title");
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < titles.getLength(); i++) {
      texts.add(titles.item(i).getTextContent());
    }
    // main's frame spans nearly everything; work's are the widest leaves.
    assertThat(texts.stream().filter(t -> t.startsWith("main: ")).findFirst().get())
        .matches("main: [0-9,]+ instructions \\(9\\d\\.\\d\\d%\\)");
    assertThat(texts.stream().filter(t -> t.startsWith("work: ")).count()).isAtLeast(4);
    assertThat(Files.exists(run.resolve("CallPair_handler.cycles.svg"))).isFalse();
  }

  /** Chromium's command, or null (with the reason printed) when it cannot run here. */
  static List<String> chromium(Path profile) throws Exception {
    for (String c : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser")) {
      if (Files.isExecutable(Path.of(c))) {
        return new ArrayList<>(
            List.of(
                c,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + profile,
                "--window-size=1280,2000"));
      }
    }
    System.out.println(
        "ViewCommandTest: skipped the browser check: chromium is not installed"
            + " (apt-get install -y chromium)");
    return null;
  }

  static String browse(List<String> command, Path log) throws Exception {
    Process p = new ProcessBuilder(command).redirectError(log.toFile()).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return null;
    }
    return p.exitValue() == 0 ? out : null;
  }

  @Test
  void theFlameGraphsTablesAndTimelineAppearInARealBrowser() throws Exception {
    assertThat(ConfigCommandTest.acf("view", sampled.toString()).status()).isEqualTo(0);
    String url = sampled.resolve("index.html").toUri().toString();
    List<String> dump = chromium(tmp.resolve("chromium-profile"));
    if (dump == null) {
      return;
    }
    dump.add("--dump-dom");
    dump.add(url);
    String dom = browse(dump, tmp.resolve("chromium.log"));
    if (dom == null || dom.isBlank()) {
      System.out.println(
          "ViewCommandTest: skipped the browser check: chromium could not start: "
              + Files.readString(tmp.resolve("chromium.log"))
                  .lines()
                  .reduce((a, b) -> b)
                  .orElse(""));
      return;
    }
    assertThat(dom).contains("data-ready=\"true\""); // the script ran to its end
    assertThat(dom).containsMatch("<div class=\"flamegraph\" data-profile=\"CallingContext\"");
    assertThat(dom).containsMatch("<div class=\"frame[^\"]*\" title=\"work: [0-9,]+ instructions");
    assertThat(dom)
        .containsMatch("<table class=\"profile sortable\" data-profile=\"CallingContext\"");
    assertThat(dom)
        .containsMatch("<table class=\"profile sortable\" data-profile=\"CallPair_handler\"");
    assertThat(dom).containsMatch("<th scope=\"col\" title=\"sort by instructions\">");
    assertThat(dom).containsMatch("<td class=\"\" title=\"outer\">outer</td>");
    assertThat(dom).containsMatch("<svg class=\"timeline\"");
    assertThat(dom).containsMatch("<rect [^>]*class=\"interval sampled\"");
    assertThat(dom).contains("application instructions");
    Path png = tmp.resolve("view.png");
    List<String> shot = chromium(tmp.resolve("chromium-profile-2"));
    shot.add("--screenshot=" + png);
    shot.add(url);
    assertThat(browse(shot, tmp.resolve("chromium-2.log"))).isNotNull();
    byte[] bytes = Files.readAllBytes(png);
    assertThat(bytes.length).isGreaterThan(10_000);
    assertThat(new String(bytes, 1, 3)).isEqualTo("PNG");
  }
}
