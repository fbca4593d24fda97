package io.etl.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private PrintStream originalErr;

    private record Run(int exit, String out, String err) {}

    @BeforeEach
    void captureStderr() {
        originalErr = System.err;
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreStderr() {
        System.setErr(originalErr);
    }

    private Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(exit, out.toString(), err + stderr.toString(StandardCharsets.UTF_8));
    }

    @Test
    void everyCommandHasHelp() {
        assertThat(run("--help").out()).contains("run", "validate");
        Run help = run("run", "--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out())
                .contains(
                        "--config",
                        "--pipeline",
                        "--http-port",
                        "--http-host",
                        "--log-format",
                        "8080",
                        "0.0.0.0",
                        "130",
                        "pipeline.shutdown_timeout");
        assertThat(run("validate", "--help").out()).contains("FILE");
        assertThat(help.out().replaceAll("\\s+", " "))
                .contains(
                        "OTEL_SERVICE_NAME",
                        "OTEL_EXPORTER_OTLP_ENDPOINT",
                        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                        "OTEL_TRACES_EXPORTER");
    }

    @Test
    void theCommandListShowsEachCommandsFirstSentenceWhole() {
        Main.commandLine().getSubcommands().forEach((name, command) -> {
            String[] description = command.getCommandSpec().usageMessage().description();
            if (description.length > 0) {
                assertThat(description[0]).as(name).endsWith(".");
            }
        });
        assertThat(run("--help").out()).contains("at-least-once or exactly-once");
    }

    @Test
    void usageErrorsExitTwo() {
        assertThat(run().exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(run("run").exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(run("run", "--config", "x.yaml", "--http-port", "70000").exit())
                .isEqualTo(ExitCodes.USAGE);
        Run badFormat = run("run", "--config", "x.yaml", "--log-format", "xml");
        assertThat(badFormat.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(badFormat.err()).contains("--log-format: 'xml' is not a log format");
    }

    @Test
    void severalFactoriesWithoutPipelineIsAUsageErrorListingThem() throws Exception {
        Path file = Files.writeString(dir.resolve("p.yaml"), "pipeline: {name: p}\n");
        Run run = run("run", "--config", file.toString(), "--http-port", "0");
        assertThat(run.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("several pipelines found", "copy", FailingFactory.NAME, "--pipeline");
    }

    @Test
    void anUnknownPipelineIsAUsageErrorListingTheNamesFound() throws Exception {
        Path file = Files.writeString(dir.resolve("p.yaml"), "pipeline: {name: p}\n");
        Run run = run("run", "--config", file.toString(), "--pipeline", "nope", "--http-port", "0");
        assertThat(run.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("unknown pipeline 'nope'; found: ").contains("copy", FailingFactory.NAME);
    }

    @Test
    void anInvalidFileIsAConfigurationErrorNamingTheKey() throws Exception {
        Path file = Files.writeString(dir.resolve("p.yaml"), "pipeline: {shutdown_timeout: 10s}\n");
        Run run = run("run", "--config", file.toString(), "--pipeline", "copy", "--http-port", "0");
        assertThat(run.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("pipeline.shutdown_timeout", "checkpoint.drain_timeout");
    }

    @Test
    void aSectionTheFactoryNeedsButTheFileLacksIsAConfigurationError() throws Exception {
        Path file = Files.writeString(dir.resolve("p.yaml"), "pipeline: {name: p}\n");
        Run run = run("run", "--config", file.toString(), "--pipeline", FailingFactory.NAME, "--http-port", "0");
        assertThat(run.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("error: invalid configuration in " + file, "  source.missing");
    }

    @Test
    void aPortInUseIsAUsageErrorNamingTheAddressAndNothingIsStarted() throws Exception {
        Path file = Files.writeString(dir.resolve("copy.yaml"), """
                source: {in: {kafka: {brokers: "127.0.0.1:1", topics: [t], group_id: g}}}
                sinks: {out: {kafka: {brokers: "127.0.0.1:1", topic: t2}}}
                """);
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Run run = run(
                    "run",
                    "--config",
                    file.toString(),
                    "--pipeline",
                    "copy",
                    "--http-host",
                    "127.0.0.1",
                    "--http-port",
                    Integer.toString(taken.getLocalPort()));
            assertThat(run.exit()).isEqualTo(ExitCodes.USAGE);
            assertThat(run.err())
                    .contains("cannot listen on 127.0.0.1:" + taken.getLocalPort(), "--http-port")
                    .doesNotContain("writing topic");
        }
    }

    private Path copyYaml(String sourceName) throws Exception {
        return Files.writeString(dir.resolve("copy-" + sourceName + ".yaml"), """
                source: {%s: {kafka: {brokers: "127.0.0.1:9", topics: [a], group_id: g}}}
                sinks: {out: {kafka: {brokers: "127.0.0.1:9", topic: b}}}
                """.formatted(sourceName));
    }

    @Test
    void validateBuildsTheChosenPipelineFromAValidFileAndPrintsEveryProblemKeyPathFirst() throws Exception {
        Path good = copyYaml("in");
        Run ok = run("validate", "--pipeline", "copy", good.toString());
        assertThat(ok.exit()).as(ok.err()).isZero();
        assertThat(ok.out().strip()).isEqualTo("ok: " + good + " (pipeline 'copy')");

        Path bad = Files.writeString(dir.resolve("bad.yaml"), "pipeline: {nmae: p}\ncheckpoint: {interval: soon}\n");
        Run problems = run("validate", "--pipeline", "copy", bad.toString());
        assertThat(problems.exit()).isEqualTo(ExitCodes.FAILED);
        assertThat(problems.err().lines().filter(l -> !l.isBlank()))
                .anySatisfy(l -> assertThat(l).startsWith("pipeline.nmae:"))
                .anySatisfy(l -> assertThat(l).startsWith("checkpoint.interval:"));
        assertThat(run("validate").exit()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void validateRejectsAFileThatLacksASectionThePipelineReads() throws Exception {
        Path renamed = copyYaml("input");
        Run run = run("validate", "--pipeline", "copy", renamed.toString());
        assertThat(run.exit()).isEqualTo(ExitCodes.FAILED);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().strip())
                .startsWith("source.in: no such source section")
                .contains("input");

        Path empty = Files.writeString(dir.resolve("empty.yaml"), "");
        assertThat(run("validate", "--pipeline", "copy", empty.toString()).err())
                .startsWith("source.in: no such source section");
        assertThat(run(
                                "validate",
                                "--pipeline",
                                FailingFactory.NAME,
                                copyYaml("in").toString())
                        .err())
                .startsWith("source.missing: no such source section");
    }

    @Test
    void validateChoosesThePipelineAsRunDoes() throws Exception {
        Path file = copyYaml("in");
        Run several = run("validate", file.toString());
        assertThat(several.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(several.err()).contains("several pipelines found", "copy", FailingFactory.NAME, "--pipeline");

        Run unknown = run("validate", "--pipeline", "nope", file.toString());
        assertThat(unknown.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknown.err()).contains("unknown pipeline 'nope'");
    }

    @Test
    void validateWithoutAFactoryChecksTheFileAloneAndSaysSo() throws Exception {
        Path renamed = copyYaml("input");
        Run run = WithoutFactories.call(() -> run("validate", renamed.toString()));
        assertThat(run.exit()).isZero();
        assertThat(run.out().lines())
                .containsExactly(
                        "ok: " + renamed,
                        "note: no pipeline factory on the class path; the sections a pipeline reads were not matched"
                                + " against the file");
        Run unknown = WithoutFactories.call(() -> run("validate", "--pipeline", "copy", renamed.toString()));
        assertThat(unknown.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknown.err()).contains("no pipeline factory found on the class path");
    }
}
