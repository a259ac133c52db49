package dev.vigil.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.io.AtomicWrite;
import dev.vigil.io.OwnerOnly;
import dev.vigil.observe.Timestamps;
import dev.vigil.orchestrate.PassResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;

/**
 * Writes a pass's artifacts into {@code --out} (docs/DESIGN.md#artifacts): {@code report.json},
 * {@code report.md} and {@code report.html} (each replaced atomically) and one line appended to
 * {@code audit.jsonl} with the inputs, the stage reached and the SHA-256 of each artifact.
 */
public final class Artifacts {
  /** The machine-readable report. */
  public static final String REPORT_JSON = "report.json";

  /** The report for people. */
  public static final String REPORT_MD = "report.md";

  /** The report for people, as one self-contained page. */
  public static final String REPORT_HTML = "report.html";

  /** One line per pass. */
  public static final String AUDIT = "audit.jsonl";

  private Artifacts() {}

  /**
   * Compiles report.html's template ahead of the first {@link #write} (for example on a second
   * thread while a pass reads its events); what {@link #write} writes is the same either way.
   *
   * @throws IllegalStateException if the template does not compile
   */
  public static void prepareHtml() {
    HtmlTemplates.prepare(HtmlReport.TEMPLATE);
  }

  /** Writes the artifacts of one pass; returns the report it wrote. */
  public static ObjectNode write(PassResult r, Path out, Clock clock) throws IOException {
    OwnerOnly.createDirectories(out);
    ObjectNode report = ReportJson.of(r);
    byte[] json = ReportJson.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(report);
    byte[] md = ReportMarkdown.of(r).getBytes(StandardCharsets.UTF_8);
    byte[] html = HtmlReport.of(r, out).getBytes(StandardCharsets.UTF_8);
    AtomicWrite.replace(out.resolve(REPORT_JSON), json);
    AtomicWrite.replace(out.resolve(REPORT_MD), md);
    AtomicWrite.replace(out.resolve(REPORT_HTML), html);

    ObjectNode audit = ReportJson.MAPPER.createObjectNode();
    audit.put("pass_at", Timestamps.format(clock.instant()));
    audit.put("now", Timestamps.format(r.options().now()));
    audit.set("input", report.get("input"));
    audit.put("stage", r.stage());
    audit.put("events_used", r.eventsUsed());
    audit.put("events_deposited", r.eventsDeposited());
    ObjectNode digests = audit.putObject("artifacts");
    digests.put(REPORT_JSON, sha256(json));
    digests.put(REPORT_MD, sha256(md));
    digests.put(REPORT_HTML, sha256(html));
    OwnerOnly.createFileIfMissing(out.resolve(AUDIT));
    Files.write(
        out.resolve(AUDIT),
        (ReportJson.MAPPER.writeValueAsString(audit) + "\n").getBytes(StandardCharsets.UTF_8),
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    return report;
  }

  /** The number of the next pass in {@code out}: one more than the passes its audit log holds. */
  public static long passNumber(Path out) throws IOException {
    Path audit = out.resolve(AUDIT);
    if (!Files.exists(audit)) {
      return 1;
    }
    try (var lines = Files.lines(audit)) {
      return lines.filter(l -> !l.isBlank()).count() + 1;
    }
  }

  /** The SHA-256 of some bytes, as hex. */
  public static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
