package io.etl.runtime.tools;

import io.etl.core.config.PipelineConfig;
import io.etl.kafka.sink.DeadLetterRedrive;
import io.etl.runtime.ExitCodes;
import io.etl.runtime.Main;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dead-letters redrive}: replays a dead-letter topic ({@link DeadLetterRedrive}): each dead letter's original
 * key, value and headers, written again to the topic it came from, or to {@code --to}; filtered by stage, reason and
 * when it was rejected; only says what it would do unless {@code --execute}.
 */
@Command(
        name = "dead-letters",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Works on a pipeline's dead-letter topic.",
        subcommands = {DeadLettersCommand.Redrive.class},
        synopsisSubcommandLabel = "COMMAND")
public final class DeadLettersCommand implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: redrive");
    }

    /** {@code dead-letters redrive}. */
    @Command(
            name = "redrive",
            mixinStandardHelpOptions = true,
            versionProvider = Main.Version.class,
            description = {
                "Writes dead letters back: each one's original key, value and headers, to the topic it was first"
                        + " read from (or --to), with etl.redrive.from and etl.redrive.count headers added.",
                "Reads the dead-letter topic to the end it has now. Says what it would do unless --execute; a second"
                        + " run writes the same records again."
            },
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {
                "0:the plan was printed, or every matching dead letter was written",
                "1:a write failed, a topic is missing, or the cluster could not be reached",
                "2:usage error"
            })
    public static final class Redrive extends ToolCommand {

        /** Dead letters listed one a line before the summary, unless {@code --show} says otherwise. */
        static final int DEFAULT_SHOW = 20;

        @CommandLine.Mixin
        private ClusterOptions cluster;

        @Option(
                names = "--from",
                paramLabel = "TOPIC",
                description = "The dead-letter topic. Default: the topic of the --config dead_letter section.")
        private String from;

        @Option(
                names = "--to",
                paramLabel = "TOPIC",
                description = "Write every dead letter to TOPIC. Default: the topic each was first read from.")
        private String to;

        @Option(
                names = "--stage",
                paramLabel = "STAGE",
                description = "Only dead letters of this stage: decode, operator:NAME, split:NAME, encode:SINK,"
                        + " produce:SINK, or a pattern such as operator:* (repeatable).")
        private List<String> stages = new ArrayList<>();

        @Option(
                names = "--reason",
                paramLabel = "REASON",
                description = "Only dead letters with this reason: decode, operator, encode, oversized, produce"
                        + " (repeatable).")
        private List<String> reasons = new ArrayList<>();

        @Option(
                names = "--since",
                paramLabel = "TIME",
                description = "Only dead letters rejected at or after TIME: 2026-12-07T10:15:00Z, 2026-12-07T10:15"
                        + " (local time), 2026-12-07, or a time ago such as -2h.")
        private String since;

        @Option(
                names = "--until",
                paramLabel = "TIME",
                description = "Only dead letters rejected before TIME (same forms as --since).")
        private String until;

        @Option(
                names = {"-n", "--max"},
                paramLabel = "N",
                description = "At most N dead letters.")
        private Long max;

        @Option(
                names = "--show",
                paramLabel = "N",
                defaultValue = "" + DEFAULT_SHOW,
                description = "List the first N matching dead letters. Default: ${DEFAULT-VALUE}.")
        private int show;

        @Option(names = "--execute", description = "Write them; without it nothing is written.")
        private boolean execute;

        @Override
        int run(PrintWriter out, PrintWriter err) {
            if (max != null && max < 1) {
                throw usage("--max must be at least 1, got " + max);
            }
            Instant rejectedSince = time("--since", since);
            Instant rejectedUntil = time("--until", until);
            if (rejectedSince != null && rejectedUntil != null && !rejectedSince.isBefore(rejectedUntil)) {
                throw usage("--since (" + rejectedSince + ") must be before --until (" + rejectedUntil + ")");
            }
            PipelineConfig pipeline = cluster.pipeline();
            KafkaSection section = null;
            if (pipeline != null) {
                // the dead_letter section names the topic and its cluster, unless --section says otherwise
                section = hasSectionOption()
                        ? cluster.section(pipeline, null)
                        : KafkaSection.of(pipeline).stream()
                                .filter(s -> s.name().equals(PipelineConfig.DEAD_LETTER))
                                .findFirst()
                                .orElseGet(() -> cluster.section(pipeline, from));
            }
            boolean deadLetterSection = section != null && section.name().equals(PipelineConfig.DEAD_LETTER);
            String topic =
                    from != null ? from : deadLetterSection ? section.topics().get(0) : null;
            if (topic == null) {
                throw usage("name the dead-letter topic with --from, or give --config FILE with a dead_letter section");
            }
            try (Cluster c = cluster.cluster(pipeline, section).requireReachable()) {
                DeadLetterRedrive redrive =
                        DeadLetterRedrive.from(c.properties(), topic).timeout(c.timeout());
                stages.forEach(redrive::stage);
                reasons.forEach(redrive::reason);
                if (rejectedSince != null) {
                    redrive.since(rejectedSince);
                }
                if (rejectedUntil != null) {
                    redrive.until(rejectedUntil);
                }
                if (to != null) {
                    redrive.to(to);
                }
                if (max != null) {
                    redrive.limit(max);
                }
                int[] listed = {0};
                redrive.onEach(letter -> {
                    if (listed[0]++ < show) {
                        out.println(line(letter));
                    }
                });
                DeadLetterRedrive.Report report;
                try {
                    report = execute ? redrive.execute() : redrive.plan();
                } catch (IllegalArgumentException | IllegalStateException e) {
                    throw ToolException.failed(e.getMessage());
                }
                if (listed[0] > show) {
                    out.println("... and " + (listed[0] - show) + " more");
                }
                return summary(report, topic, out);
            }
        }

        private Instant time(String option, String text) {
            if (text == null) {
                return null;
            }
            try {
                return DateTimes.parse(text, Clock.systemDefaultZone());
            } catch (IllegalArgumentException e) {
                throw usage(option + ": " + e.getMessage());
            }
        }

        private boolean hasSectionOption() {
            return spec.commandLine().getParseResult().hasMatchedOption("--section");
        }

        private static String line(DeadLetterRedrive.Letter letter) {
            return letter.position() + "  stage=" + letter.stage() + "  reason=" + letter.reason()
                    + (letter.redrivable() ? "  -> " + letter.target() : "  cannot be redriven: " + letter.problem())
                    + "  (rejected " + letter.rejected() + ")";
        }

        private int summary(DeadLetterRedrive.Report report, String topic, PrintWriter out) {
            String targets = report.byTarget().entrySet().stream()
                    .map(e -> e.getKey() + " " + e.getValue())
                    .collect(Collectors.joining(", "));
            long redrivable = report.byTarget().values().stream()
                    .mapToLong(Long::longValue)
                    .sum();
            out.println("read " + report.read() + " dead letter(s) of " + topic + ", " + report.matched()
                    + " matching"
                    + (report.unredrivable() == 0 ? "" : ", " + report.unredrivable() + " of them cannot be redriven"));
            if (!execute) {
                out.println("would redrive " + redrivable + (targets.isEmpty() ? "" : ": " + targets));
                out.println("dry run: nothing was written; add --execute to write them");
                return ExitCodes.OK;
            }
            out.println("redrove " + report.sent() + (targets.isEmpty() ? "" : ": " + targets));
            if (report.failed() > 0) {
                throw ToolException.failed(
                        report.failed() + " record(s) could not be written: " + report.firstFailure());
            }
            return ExitCodes.OK;
        }
    }
}
