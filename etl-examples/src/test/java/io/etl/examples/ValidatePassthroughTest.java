package io.etl.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code validate} catches passthrough values of the wrong type and librdkafka names before anything is deployed. */
class ValidatePassthroughTest {

    @TempDir
    Path dir;

    @Test
    void rejectsBadPassthroughValuesAndLibrdkafkaNamesWithTheirKeyPaths() throws Exception {
        Path file = Files.writeString(dir.resolve("ported.yaml"), """
                source:
                  orders:
                    kafka:
                      brokers: localhost:9092
                      topics: [orders]
                      group_id: g
                      consumer: {fetch.wait.max.ms: "100", fetch.min.bytes: "1024"}
                sinks:
                  eu:
                    kafka:
                      brokers: localhost:9092
                      topic: orders-eu
                      producer: {retries: "x", statistics.interval.ms: "1000", batch.size: "65536"}
                """);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int exit = EtlExamples.execute(
                new PrintWriter(out), new PrintWriter(err), new String[] {"validate", file.toString()});

        assertThat(exit).isEqualTo(1);
        List<String> lines = Arrays.stream(err.toString().split("\\R"))
                .filter(l -> !l.isBlank())
                .toList();
        assertThat(lines).hasSize(3);
        assertThat(lines)
                .anySatisfy(l -> assertThat(l).startsWith("sinks.eu.kafka.producer.retries: invalid value 'x'"));
        assertThat(lines)
                .anySatisfy(l -> assertThat(l)
                        .startsWith("sinks.eu.kafka.producer.statistics.interval.ms:")
                        .contains("statistics_interval"));
        assertThat(lines)
                .anySatisfy(l -> assertThat(l)
                        .startsWith("source.orders.kafka.consumer.fetch.wait.max.ms:")
                        .contains("fetch.max.wait.ms"));
    }
}
