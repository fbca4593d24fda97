package io.etl.core.internal.config;

import static io.etl.core.internal.config.Configs.parse;
import static io.etl.core.internal.config.Configs.problems;
import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.config.DataSize;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DurationsAndSizesTest {

    private static Duration interval(String text) {
        return parse("checkpoint: {interval: " + text + "}").checkpoint().interval();
    }

    private static DataSize maxBytes(String text) {
        return parse("sinks: {eu: {kafka: {brokers: b, topic: t, batch: {max_bytes: " + text + "}}}}")
                .sink("eu")
                .pool()
                .batch()
                .maxBytes();
    }

    @ParameterizedTest
    @CsvSource({
        "250ms, PT0.25S",
        "30s, PT30S",
        "5m, PT5M",
        "1h, PT1H",
        "2d, PT48H",
        "0s, PT0S",
        "PT30S, PT30S",
        "pt1m30s, PT1M30S"
    })
    void durationsAcceptUnitsAndIso8601(String text, String expected) {
        assertThat(interval(text)).isEqualTo(Duration.parse(expected));
    }

    @Test
    void plainNumberDurationIsRejectedAsAmbiguous() {
        assertThat(problems("checkpoint: {interval: 30}"))
                .containsExactly(
                        "checkpoint.interval: '30' is ambiguous without a unit; use 250ms, 30s, 5m, 1h or ISO-8601");
        assertThat(problems("checkpoint: {interval: '30'}"))
                .containsExactly(
                        "checkpoint.interval: '30' is ambiguous without a unit; use 250ms, 30s, 5m, 1h or ISO-8601");
    }

    @Test
    void badDurationSaysWhichFormsAreAccepted() {
        assertThat(problems("checkpoint: {interval: 5 minutes, drain_timeout: 1.5s, stalled_fail_after: PT-5S}"))
                .containsExactly(
                        "checkpoint.interval: '5 minutes' is not a duration; use 250ms, 30s, 5m, 1h or ISO-8601",
                        "checkpoint.drain_timeout: '1.5s' is not a duration; use 250ms, 30s, 5m, 1h or ISO-8601",
                        "checkpoint.stalled_fail_after: 'PT-5S' is negative; a duration must be zero or more");
    }

    @Test
    void durationGivenAsAMappingIsAProblem() {
        assertThat(problems("checkpoint: {interval: {seconds: 1}}"))
                .containsExactly("checkpoint.interval: expected a duration such as 30s");
    }

    @ParameterizedTest
    @CsvSource({"1048576, 1048576", "512KiB, 524288", "1MB, 1000000", "1MiB, 1048576", "2gb, 2000000000", "'0', 0"})
    void sizesAcceptUnitsAndPlainBytes(String text, long bytes) {
        assertThat(maxBytes(text)).isEqualTo(DataSize.ofBytes(bytes));
    }

    @Test
    void badSizesSayWhichFormsAreAccepted() {
        assertThat(
                        problems(
                                "sinks: {eu: {kafka: {brokers: b, topic: t, max_message_bytes: 1.5MB, batch: {max_bytes: -1}}}}"))
                .containsExactly(
                        "sinks.eu.kafka.batch.max_bytes: '-1' " + DataSizeDeserializer.NOT_A_SIZE,
                        "sinks.eu.kafka.max_message_bytes: '1.5MB' " + DataSizeDeserializer.NOT_A_SIZE);
    }
}
