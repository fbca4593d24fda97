package io.etl.examples.split;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.runtime.ExitCodes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The program with {@code KAFKA_BROKERS} set, where nothing can start: what it prints and how it exits. */
class KafkaToKafkaSplitCommandTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream originalOut;
    private PrintStream originalErr;

    @BeforeEach
    void capture() {
        originalOut = System.out;
        originalErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setOut(originalOut);
        System.setErr(originalErr);
    }

    private int run(String brokers, String... args) {
        return new CommandLine(new KafkaToKafkaSplitCommand(Map.of("KAFKA_BROKERS", brokers)::get)).execute(args);
    }

    private static int closedPort() throws IOException {
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return free.getLocalPort();
        }
    }

    @Test
    void anInvalidConfigurationIsTheRuntimesConfigurationErrorAndStartsNothing() throws IOException {
        Path file = Files.writeString(
                dir.resolve("bad.yaml"),
                KafkaToKafkaSplit.defaultYaml().replace("  name: kafka_to_kafka_split", "  nmae: x"));

        int exit = run("127.0.0.1:" + closedPort(), "--config", file.toString(), "--http-port", "0");

        assertThat(exit).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("error: invalid configuration", "pipeline.nmae");
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void aRunThatFailedBeforeReadingAnythingPrintsNoSummary() throws IOException {
        String yaml = KafkaToKafkaSplit.defaultYaml()
                .replaceAll("(?m)^(\\s+)brokers: (.*)$", "$1brokers: $2\n$1startup_timeout: 1s");
        Path file = Files.writeString(dir.resolve("down.yaml"), yaml);

        int exit = run("127.0.0.1:" + closedPort(), "--config", file.toString(), "--http-port", "0");

        assertThat(exit).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("could not reach brokers");
        assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("summary:", "accounted for");
    }
}
