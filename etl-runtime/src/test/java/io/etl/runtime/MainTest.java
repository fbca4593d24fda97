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
        assertThat(run.err()).contains("source.missing");
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

    @Test
    void validateExitsZeroForAValidFileAndOneWithEveryProblemKeyPathFirst() throws Exception {
        Path good = Files.writeString(dir.resolve("good.yaml"), "pipeline: {name: p}\n");
        Run ok = run("validate", good.toString());
        assertThat(ok.exit()).isZero();
        assertThat(ok.out().strip()).isEqualTo("ok: " + good);

        Path bad = Files.writeString(dir.resolve("bad.yaml"), "pipeline: {nmae: p}\ncheckpoint: {interval: soon}\n");
        Run problems = run("validate", bad.toString());
        assertThat(problems.exit()).isEqualTo(ExitCodes.FAILED);
        assertThat(problems.err().lines().filter(l -> !l.isBlank()))
                .anySatisfy(l -> assertThat(l).startsWith("pipeline.nmae:"))
                .anySatisfy(l -> assertThat(l).startsWith("checkpoint.interval:"));
        assertThat(run("validate").exit()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void validateWithTrainingRunAlsoPreloadsAndBuildsTheMetricsAfterAValidFileOnly() throws Exception {
        Path good = Files.writeString(dir.resolve("good.yaml"), "pipeline: {name: p}\n");
        Run ok = run("validate", "--training-run", good.toString());
        assertThat(ok.exit()).isZero();
        assertThat(ok.out().lines())
                .startsWith("ok: " + good, "training run: configuration preload finished")
                .anySatisfy(l -> assertThat(l).startsWith("training run: pipeline not built: "))
                .anySatisfy(l -> assertThat(l).startsWith("training run: metrics registry with the JVM's meters"));

        Path bad = Files.writeString(dir.resolve("bad.yaml"), "pipeline: {nmae: p}\n");
        Run problems = run("validate", "--training-run", bad.toString());
        assertThat(problems.exit()).isEqualTo(ExitCodes.FAILED);
        assertThat(problems.out()).doesNotContain("training run");
    }
}
