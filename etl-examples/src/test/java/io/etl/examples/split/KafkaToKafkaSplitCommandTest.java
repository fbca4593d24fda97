package io.etl.examples.split;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.examples.StandardStreams;
import io.etl.runtime.ExitCodes;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The program with {@code KAFKA_BROKERS} set, where nothing can start: what it prints and how it exits. */
class KafkaToKafkaSplitCommandTest {

    @TempDir
    Path dir;

    @RegisterExtension
    final StandardStreams streams = new StandardStreams();

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
        assertThat(streams.err()).contains("error: invalid configuration", "pipeline.nmae");
        assertThat(streams.out()).isEmpty();
    }

    @Test
    void aRunThatFailedBeforeReadingAnythingPrintsNoSummary() throws IOException {
        String yaml = KafkaToKafkaSplit.defaultYaml()
                .replaceAll("(?m)^(\\s+)brokers: (.*)$", "$1brokers: $2\n$1startup_timeout: 1s");
        Path file = Files.writeString(dir.resolve("down.yaml"), yaml);

        int exit = run("127.0.0.1:" + closedPort(), "--config", file.toString(), "--http-port", "0");

        assertThat(exit).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(streams.err()).contains("could not reach brokers");
        assertThat(streams.out()).doesNotContain("summary:", "accounted for");
    }
}
