package dev.vigil.adapt.code;

import dev.vigil.io.AtomicWrite;
import dev.vigil.io.OwnerOnly;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The code stage of a pass (docs/ADAPTATION.md#code-proposals), the entry point the orchestrator
 * calls: scan {@code --repo}, rank the strategies by score, let each firing strategy rewrite the
 * files it knows, and for each strategy with changes make one unified diff, verify it ({@link
 * DiffCheck}, then {@link CompileCheck}) and write it with its PR note as {@code
 * OUT/proposals/patch_<ts>[_n].diff} and {@code OUT/proposals/PR_<ts>[_n].md} ({@code <ts>} is the
 * pass's {@code now} as {@code yyyyMMdd'T'HHmmss'Z'}; {@code _2}, {@code _3}… for the second and
 * later proposals of a pass). A proposal that fails a check is dropped with the reason. Each diff
 * is against the repository as it is on disk; nothing is ever written inside {@code --repo}.
 */
public final class CodeProposals {
  static final DateTimeFormatter FILE_TS =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  /**
   * How proposals are verified.
   *
   * @param classpath jars and directories the repository's sources need to compile (may be empty)
   * @param git the git executable
   * @param processTimeout how long one git command may take
   */
  public record Settings(List<Path> classpath, String git, Duration processTimeout) {
    /** Copies the class path. */
    public Settings {
      classpath = List.copyOf(classpath);
    }

    /** No class path, {@code git} from the PATH, 30 s per git command. */
    public static Settings defaults() {
      return new Settings(List.of(), "git", Duration.ofSeconds(30));
    }
  }

  private final List<Strategy> strategies;
  private final Settings settings;

  /** The default strategies and settings. */
  public CodeProposals() {
    this(defaultStrategies(), Settings.defaults());
  }

  /**
   * @param strategies the strategies, in the order that breaks ties of score
   */
  public CodeProposals(List<Strategy> strategies, Settings settings) {
    this.strategies = List.copyOf(strategies);
    this.settings = settings;
  }

  /** {@link TZReceiptStrategy} and {@link RetryErrorsStrategy}, with their defaults. */
  public static List<Strategy> defaultStrategies() {
    return List.of(new TZReceiptStrategy(), new RetryErrorsStrategy());
  }

  /**
   * Runs the code stage with the default strategies and settings.
   *
   * @param repo {@code --repo}, or null when not given
   * @param evidence what the diagnosis found
   * @param outDir {@code --out}; proposals go to its {@code proposals/}
   * @param now the pass's {@code now}, which names the files
   * @throws IOException when the repository cannot be walked or a proposal cannot be written
   */
  public static CodeOutcome propose(Path repo, Evidence evidence, Path outDir, Instant now)
      throws IOException {
    return new CodeProposals().run(repo, evidence, outDir, now);
  }

  /** Runs the code stage; see {@link #propose}. */
  public CodeOutcome run(Path repo, Evidence evidence, Path outDir, Instant now)
      throws IOException {
    if (repo == null) {
      return CodeOutcome.skipped("no --repo given: code proposals skipped");
    }
    if (!Files.exists(repo)) {
      return CodeOutcome.skipped("--repo " + repo + " does not exist: code proposals skipped");
    }
    if (!Files.isDirectory(repo)) {
      return CodeOutcome.skipped("--repo " + repo + " is not a directory: code proposals skipped");
    }
    JavaRepo java = JavaRepo.scan(repo);
    List<String> notes = new ArrayList<>(java.notes());
    if (outDir.toAbsolutePath().normalize().startsWith(java.root())) {
      notes.add(
          "--out "
              + outDir
              + " is inside --repo: proposals are written there, nothing else in the repository");
    }
    if (java.files().isEmpty()) {
      notes.add("no Java sources under --repo " + java.root());
      return CodeOutcome.of(notes, List.of());
    }
    List<Hotspot> hotspots = HotspotScanner.scan(java);
    notes.add(summary(java, hotspots));

    List<Strategy> ranked = new ArrayList<>(strategies);
    Map<Strategy, Double> scores = new LinkedHashMap<>();
    ranked.forEach(s -> scores.put(s, s.score(evidence, hotspots)));
    ranked.sort(Comparator.comparingDouble((Strategy s) -> scores.get(s)).reversed());

    List<Proposal> proposals = new ArrayList<>();
    int written = 0;
    for (Strategy s : ranked) {
      double score = scores.get(s);
      if (score <= 0) {
        notes.add(
            s.name()
                + " does not fire (score 0): the evidence does not call for it or the repository has"
                + " no hotspot it works on");
        continue;
      }
      Optional<Proposal> p =
          propose(s, score, java, evidence, hotspots, outDir, now, written + 1, notes);
      if (p.isPresent()) {
        proposals.add(p.get());
        written += p.get().isWritten() ? 1 : 0;
      }
    }
    return CodeOutcome.of(notes, proposals);
  }

  private Optional<Proposal> propose(
      Strategy s,
      double score,
      JavaRepo java,
      Evidence evidence,
      List<Hotspot> hotspots,
      Path outDir,
      Instant now,
      int number,
      List<String> notes)
      throws IOException {
    Rewrite rw = rewrite(s, java, evidence);
    Map<String, String> patched = rw.patched();
    List<String> changes = rw.changes();
    if (patched.isEmpty()) {
      notes.add(nothingToRewrite(s, score, rw.left()));
      return Optional.empty();
    }
    String diff = diffOf(java, patched);
    List<String> files = List.copyOf(patched.keySet());
    List<Check> checks = check(java, diff, patched);
    for (Check c : checks) {
      if (!c.ok()) {
        notes.add(s.name() + ": proposal dropped, " + c.name() + " failed: " + c.detail());
        return Optional.of(
            Proposal.dropped(
                s.name(), score, files, checks, changes, c.name() + ": " + c.detail()));
      }
    }

    Path dir = outDir.resolve("proposals");
    OwnerOnly.createDirectories(dir);
    String stem = FILE_TS.format(now) + (number > 1 ? "_" + number : "");
    Path diffPath = dir.resolve("patch_" + stem + ".diff");
    Path prPath = dir.resolve("PR_" + stem + ".md");
    String apply = applyCommand(settings, java.root(), diffPath);
    String rollback = apply.replaceFirst(" apply ", " apply -R ");
    String pr =
        PrNote.markdown(
            s,
            score,
            evidence,
            hotspotsIn(hotspots, patched),
            changes,
            rw.left(),
            checks,
            diffPath.getFileName().toString(),
            apply,
            rollback,
            now);
    replace(diffPath, diff);
    replace(prPath, pr);
    notes.add(s.name() + " (score " + score + "): proposal written to " + diffPath);
    return Optional.of(
        Proposal.written(s.name(), score, files, diffPath, prPath, apply, checks, changes));
  }

  /**
   * What a strategy's rewrite of the repository's files changed.
   *
   * @param patched new content by path, of the files it changed
   * @param changes what it changed, for the PR note
   * @param left what it left alone and why
   */
  private record Rewrite(Map<String, String> patched, List<String> changes, List<String> left) {}

  /** Runs a strategy over every Java file of the repository. */
  private static Rewrite rewrite(Strategy s, JavaRepo java, Evidence evidence) {
    Map<String, String> patched = new LinkedHashMap<>();
    List<String> changes = new ArrayList<>();
    List<String> left = new ArrayList<>();
    for (JavaRepo.SourceFile f : java.files()) {
      Optional<Transformation> t = s.transform(Path.of(f.path()), f.content(), evidence, java);
      if (t.isEmpty()) {
        continue;
      }
      left.addAll(t.get().notes());
      if (t.get().changed() && !t.get().source().equals(f.content())) {
        patched.put(f.path(), t.get().source());
        changes.addAll(t.get().changes());
      }
    }
    return new Rewrite(patched, changes, left);
  }

  /** The note for a strategy that changed no file, with what it left alone. */
  private static String nothingToRewrite(Strategy s, double score, List<String> left) {
    return s.name()
        + " (score "
        + score
        + ") found nothing it knows how to rewrite"
        + (left.isEmpty() ? "" : ": " + String.join("; ", left));
  }

  /** The hotspots in the patched files, but for catch blocks. */
  private static List<Hotspot> hotspotsIn(List<Hotspot> hotspots, Map<String, String> patched) {
    return hotspots.stream()
        .filter(h -> patched.containsKey(h.file()) && h.category() != Category.CATCH_BLOCK)
        .toList();
  }

  /** The unified diff of every patched file against its content in the repository. */
  private static String diffOf(JavaRepo java, Map<String, String> patched) {
    StringBuilder diff = new StringBuilder();
    for (Map.Entry<String, String> e : patched.entrySet()) {
      diff.append(
          DiffWriter.of(e.getKey(), java.file(e.getKey()).orElseThrow().content(), e.getValue()));
    }
    return diff.toString();
  }

  /** Checks a proposal: the diff applies with git, and then the patched files compile. */
  private List<Check> check(JavaRepo java, String diff, Map<String, String> patched)
      throws IOException {

    List<Check> checks = new ArrayList<>();
    Check applies =
        new DiffCheck(settings.git(), settings.processTimeout()).check(java.root(), diff, patched);
    checks.add(applies);
    if (applies.ok()) {
      checks.add(new CompileCheck(settings.classpath()).check(java, patched));
    }
    return checks;
  }

  /**
   * The command that applies the diff: {@code git -C <repo> apply <diff>}, with {@code
   * --directory=<prefix>} when the repository is a subdirectory of a git work tree (git reads a
   * {@code diff --git} patch's paths from the top of the work tree, and would otherwise skip every
   * file).
   */
  static String applyCommand(Settings settings, Path root, Path diff) {
    String prefix = "";
    Git git = new Git(settings.git(), settings.processTimeout());
    try {
      Git.Result r = git.run(root, Map.of(), "rev-parse", "--show-prefix");
      if (r.ok() && !r.output().isBlank() && !r.output().contains("\n")) {
        prefix = r.output().strip();
        prefix = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
      }
    } catch (IOException e) {
      prefix = "";
    }
    return "git -C "
        + quote(root.toString())
        + " apply"
        + (prefix.isEmpty() ? "" : " --directory=" + quote(prefix))
        + " "
        + quote(diff.toAbsolutePath().normalize().toString());
  }

  private static String quote(String s) {
    return s.matches("[\\w./=@%+:,-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
  }

  private static String summary(JavaRepo java, List<Hotspot> hotspots) {
    Map<Category, Integer> counts = new EnumMap<>(Category.class);
    hotspots.forEach(h -> counts.merge(h.category(), 1, Integer::sum));
    StringBuilder s =
        new StringBuilder("scanned ")
            .append(DiffCheck.plural(java.files().size(), "Java file"))
            .append(": ")
            .append(DiffCheck.plural(hotspots.size(), "hotspot"));
    if (!counts.isEmpty()) {
      List<String> parts = new ArrayList<>();
      counts.forEach((c, n) -> parts.add(n + " " + c.label()));
      s.append(" (").append(String.join(", ", parts)).append(')');
    }
    return s.toString();
  }

  static void replace(Path target, String content) throws IOException {
    AtomicWrite.replace(target, content);
  }
}
