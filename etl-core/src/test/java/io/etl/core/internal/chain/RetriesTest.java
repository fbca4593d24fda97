package io.etl.core.internal.chain;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.config.RetryLevel;
import io.etl.core.config.RetryTopicsConfig;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.RecordException;
import io.etl.core.error.RetryLetter;
import io.etl.core.record.Header;
import io.etl.core.record.RecordMeta;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which retry topic a failed record goes to, with which headers; no I/O (the pool is not used). */
class RetriesTest {

    private static final RetryTopicsConfig LEVELS = RetryTopicsConfig.of(
            ErrorPolicy.DEAD_LETTER,
            List.of(RetryLevel.after(Duration.ofSeconds(10)), RetryLevel.after(Duration.ofMinutes(1))));
    private static final Retries RETRIES = new Retries("orders-p", LEVELS, null);
    private static final RecordException DOWN = RecordException.of(
            RecordException.OPERATOR, "lookup failed", new IllegalStateException("service \"crm\" down"));

    private static RecordMeta read(String topic, long offset, List<Header> headers) {
        return new RecordMeta(topic, 1, offset, 5L, "k".getBytes(StandardCharsets.UTF_8), headers, new byte[] {7});
    }

    private static String value(List<Header> headers, String key) {
        List<String> values = all(headers, key);
        return values.isEmpty() ? null : values.get(values.size() - 1);
    }

    private static List<String> all(List<Header> headers, String key) {
        List<String> values = new ArrayList<>();
        headers.stream()
                .filter(h -> h.key().equals(key))
                .forEach(h -> values.add(new String(h.value(), StandardCharsets.UTF_8)));
        return values;
    }

    /** The record as the retry topic would hand it back: the letter's key, value and headers at a new position. */
    private static RecordMeta readBack(RetryLetter letter, long offset) {
        return read(letter.topic(), offset, letter.headers());
    }

    @Test
    void aFirstFailureGoesToTheFirstLevelDueAfterItsDelayKeepingTheRecordAsRead() {
        RecordMeta source = read("orders", 42, List.of(Header.of("trace", "t1")));
        RetryLetter letter = RETRIES.next("operator:lookup", source, DOWN, 1_000L);

        assertThat(letter.topic()).isEqualTo("orders-retry-10s");
        assertThat(letter.attempt()).isEqualTo(1);
        assertThat(letter.dueAt()).isEqualTo(11_000L);
        assertThat(letter.key()).isEqualTo(source.key());
        assertThat(letter.value()).isEqualTo(new byte[] {7});
        List<Header> headers = letter.headers();
        assertThat(headers.get(0)).isEqualTo(Header.of("trace", "t1"));
        assertThat(value(headers, RetryLetter.TOPIC_HEADER)).isEqualTo("orders");
        assertThat(value(headers, RetryLetter.SOURCE_HEADER)).isEqualTo("orders-1@42");
        assertThat(value(headers, RetryLetter.ATTEMPT_HEADER)).isEqualTo("1");
        assertThat(value(headers, RetryLetter.DUE_HEADER)).isEqualTo("11000");
        assertThat(value(headers, RetryLetter.PIPELINE_HEADER)).isEqualTo("orders-p");
        assertThat(all(headers, RetryLetter.HISTORY_HEADER))
                .containsExactly("{\"attempt\":1,\"time\":1000,\"stage\":\"operator:lookup\",\"reason\":\"operator\","
                        + "\"error\":\"java.lang.IllegalStateException: service \\\"crm\\\" down\"}");
    }

    @Test
    void aRecordReadBackFromItsRetryTopicGoesOnToTheNextLevelAndThenRunsOut() {
        RetryLetter first = RETRIES.next("operator:lookup", read("orders", 42, List.of()), DOWN, 1_000L);
        RetryLetter second = RETRIES.next("operator:lookup", readBack(first, 3), DOWN, 12_000L);

        assertThat(second.topic()).isEqualTo("orders-retry-1m");
        assertThat(second.attempt()).isEqualTo(2);
        assertThat(second.dueAt()).isEqualTo(72_000L);
        assertThat(second.origin()).isEqualTo("orders-1@42");
        List<Header> headers = second.headers();
        List<String> history = all(headers, RetryLetter.HISTORY_HEADER);
        assertThat(history).hasSize(2);
        assertThat(history.get(0)).contains("\"attempt\":1", "\"time\":1000");
        assertThat(history.get(1)).contains("\"attempt\":2", "\"time\":12000");
        assertThat(all(headers, RetryLetter.ATTEMPT_HEADER)).containsExactly("2");
        assertThat(all(headers, RetryLetter.DUE_HEADER)).containsExactly("72000");

        assertThat(RETRIES.next("operator:lookup", readBack(second, 9), DOWN, 80_000L))
                .as("after the last level")
                .isNull();
        assertThat(RETRIES.then()).isEqualTo(ErrorPolicy.DEAD_LETTER);
    }

    @Test
    void retryHeadersCountOnlyOnThePipelinesOwnRetryTopics() {
        RetryLetter first = RETRIES.next("operator:lookup", read("orders", 42, List.of()), DOWN, 1_000L);
        // the same headers on an output of this pipeline read back by it, and on its retry topic read by another
        RecordMeta elsewhere = read("orders-enriched", 8, first.headers());
        Retries other = new Retries("audit-p", LEVELS, null);

        RetryLetter fresh = RETRIES.next("operator:lookup", elsewhere, DOWN, 2_000L);
        assertThat(fresh.attempt()).isEqualTo(1);
        assertThat(fresh.topic()).isEqualTo("orders-enriched-retry-10s");
        assertThat(all(fresh.headers(), RetryLetter.HISTORY_HEADER)).hasSize(1);
        assertThat(other.next("operator:lookup", readBack(first, 3), DOWN, 2_000L)
                        .attempt())
                .isEqualTo(1);
    }
}
