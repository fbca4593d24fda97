package io.etl.runtime.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.runtime.ExitCodes;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code run} and {@code check} say when the brokers of a pipeline cannot be reached: a host that does not
 * resolve, a port out of range, a port where nothing listens. {@code run} is the runtime jar in a child JVM, as
 * deployed; {@code check} is the same command line in this JVM. Each failure names the {@code brokers} key, the
 * address and the cause, in the same words from both commands, and comes within {@code refused_timeout} (5s) rather
 * than {@code startup_timeout} (30s).
 */
class StartupErrorsIT {

    /** A child JVM's start and exit on a busy machine, beyond the bound the pipeline itself waits. */
    private static final Duration JVM_SLACK = Duration.ofSeconds(15);

    private static final Pattern LOG_LINE =
            Pattern.compile("^\\d{4}-\\d{2}-\\d{2}T\\S+ +(TRACE|DEBUG|INFO|WARN|ERROR) ");

    @TempDir
    Path dir;

    private Path config(String brokers) {
        CopyTopics t = CopyTopics.random();
        return CopyYaml.of(t.uid(), brokers, t.input(), t.output()).write(dir);
    }

    private record Run(int exit, String err, Duration took) {}

    private Run run(Path config) throws Exception {
        long started = System.nanoTime();
        try (ChildRuntime child = ChildRuntime.start(dir, "run", config, Map.of())) {
            int exit = child.waitFor(Duration.ofSeconds(90));
            return new Run(exit, child.err(), Duration.ofNanos(System.nanoTime() - started));
        }
    }

    private static Tools.Result check(Path config) {
        return Tools.run("check", "--config", config.toString(), "--pipeline", CopyPipelineFactory.NAME);
    }

    /** The message of the {@code brokers} problem in {@code check}'s output, without the paths around it. */
    private static String checkedProblem(Tools.Result checked) {
        Matcher m = Pattern.compile("(?m)^\\S+\\.kafka\\.brokers: (.*?)( \\(the same brokers and security as .*\\))?$")
                .matcher(checked.out());
        assertThat(m.find()).as("a brokers problem in %s", checked).isTrue();
        return m.group(1);
    }

    @Test
    @Timeout(150)
    void aHostThatDoesNotResolveIsNamedAtTheBrokersKeyWithTheCauseInTheSameWordsByRunAndCheck() throws Exception {
        Path config = config("no-such-broker.invalid:9092");

        Run ran = run(config);
        Tools.Result checked = check(config);

        assertThat(ran.exit()).as(ran.err()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(checked.exit()).as("%s", checked).isEqualTo(ExitCodes.UNREACHABLE);
        String problem = checkedProblem(checked);
        assertThat(problem)
                .startsWith("cannot resolve host 'no-such-broker.invalid' of 'no-such-broker.invalid:9092': "
                        + "UnknownHostException: ");
        assertThat(ran.err())
                .contains("error: pipeline 'copy-")
                .contains("source.in.kafka.brokers")
                .contains(problem);
        assertWellFormedStart(ran);
    }

    @Test
    @Timeout(150)
    void aPortWhereNothingListensFailsWithinTheRefusedBoundInTheSameWordsByRunAndCheck() throws Exception {
        Path config = config("127.0.0.1:" + closedPort());

        Run ran = run(config);
        long started = System.nanoTime();
        Tools.Result checked = check(config);
        Duration checkTook = Duration.ofNanos(System.nanoTime() - started);

        assertThat(ran.exit()).as(ran.err()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(ran.took())
                .as("the start gives up at refused_timeout (5s), not startup_timeout (30s)")
                .isBetween(Duration.ofSeconds(5), Duration.ofSeconds(5).plus(JVM_SLACK));
        assertThat(checked.exit()).as("%s", checked).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(checkTook).isLessThan(Duration.ofSeconds(5).plus(JVM_SLACK));
        String problem = checkedProblem(checked);
        assertThat(problem)
                .contains("every address refused TCP connections for 5s (connection refused)")
                .contains("127.0.0.1:");
        assertThat(ran.err()).contains("source.in.kafka.brokers").contains(problem);
        assertWellFormedStart(ran);
    }

    @Test
    @Timeout(60)
    void aPortOutOfRangeIsAConfigurationErrorAtTheBrokersKeyBeforeAnythingStarts() throws Exception {
        Path config = config("localhost:99999");

        Run ran = run(config);
        Tools.Result checked = check(config);
        Tools.Result validated = Tools.run("validate", "--pipeline", CopyPipelineFactory.NAME, config.toString());

        String problem = "invalid port 99999 in 'localhost:99999': expected 1 to 65535";
        assertThat(ran.exit()).as(ran.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(ran.err()).contains("source.in.kafka.brokers: " + problem, "sinks.out.kafka.brokers: " + problem);
        assertThat(checked.exit()).as("%s", checked).isEqualTo(ExitCodes.USAGE);
        assertThat(checked.err()).contains("source.in.kafka.brokers: " + problem);
        assertThat(validated.exit()).as("%s", validated).isEqualTo(ExitCodes.FAILED);
        assertThat(validated.out() + validated.err()).contains("source.in.kafka.brokers: " + problem);
    }

    /** A start that never connected: no drain is announced, and every line on stderr is one event. */
    private static void assertWellFormedStart(Run ran) {
        assertThat(ran.err()).doesNotContain("DRAINING");
        List<String> lines = ran.err().lines().toList();
        assertThat(lines)
                .as("one line per event: a log line, or the command's error and its problems")
                .allSatisfy(line -> assertThat(
                                LOG_LINE.matcher(line).find() || line.startsWith("error: ") || line.startsWith("  "))
                        .as(line)
                        .isTrue());
    }

    private static int closedPort() throws IOException {
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return free.getLocalPort();
        }
    }
}
