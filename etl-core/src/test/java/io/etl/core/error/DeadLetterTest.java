package io.etl.core.error;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.record.Header;
import io.etl.core.record.RecordMeta;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class DeadLetterTest {

    private static final byte[] KEY = "k-1".getBytes(StandardCharsets.UTF_8);
    private static final byte[] PAYLOAD = "{\"id\": oops".getBytes(StandardCharsets.UTF_8);

    private static RecordMeta meta(List<Header> headers) {
        return new RecordMeta("orders", 2, 41L, 1_700_000_000_000L, KEY, headers, PAYLOAD);
    }

    private static Map<String, String> headerMap(DeadLetter letter) {
        return letter.headers().stream().collect(Collectors.toMap(Header::key, Header::valueAsString));
    }

    @Test
    void aDeadLetterIsTheRecordAsReadWithHeadersSayingWhyWhereAndWhen() {
        RecordMeta meta = meta(List.of(Header.of("trace", "t-1")));
        RecordException error = RecordException.at(
                meta, "parse", RecordException.OPERATOR, "boom", new IllegalArgumentException("bad id"));
        DeadLetter letter = new DeadLetter("orders-copy", DeadLetter.operatorStage("parse"), meta, error, 1, 1234L);

        assertThat(letter.key()).isSameAs(KEY);
        assertThat(letter.value()).isSameAs(PAYLOAD);
        assertThat(letter.headers().get(0)).isEqualTo(Header.of("trace", "t-1"));
        assertThat(headerMap(letter))
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "trace",
                        "t-1",
                        DeadLetter.STAGE_HEADER,
                        "operator:parse",
                        DeadLetter.REASON_HEADER,
                        "operator",
                        DeadLetter.ERROR_HEADER,
                        "java.lang.IllegalArgumentException: bad id",
                        DeadLetter.SOURCE_HEADER,
                        "orders-2@41",
                        DeadLetter.TIMESTAMP_HEADER,
                        "1234",
                        DeadLetter.PIPELINE_HEADER,
                        "orders-copy"));
    }

    @Test
    void attemptsAppearOnlyWhenTheStageWasRetried() {
        RecordMeta meta = meta(List.of());
        RecordException error = RecordException.at(meta, "lookup", RecordException.OPERATOR, "timeout", null);

        assertThat(headerMap(new DeadLetter("p", "operator:lookup", meta, error, 3, 1L)))
                .containsEntry(DeadLetter.ATTEMPTS_HEADER, "3");
        assertThat(headerMap(new DeadLetter("p", "operator:lookup", meta, error, 1, 1L)))
                .doesNotContainKey(DeadLetter.ATTEMPTS_HEADER);
    }

    @Test
    void theErrorHeaderIsBoundedAndNamesTheRecordErrorWhenThereIsNoCause() {
        RecordMeta meta = meta(List.of());
        RecordException huge = RecordException.at(
                meta, "parse", RecordException.OPERATOR, "x", new IllegalStateException("y".repeat(5000)));
        RecordException plain = RecordException.at(meta, "out", RecordException.OVERSIZED, "message of 9 bytes", null);

        String bounded = DeadLetter.describe(huge);
        assertThat(bounded)
                .hasSize(DeadLetter.MAX_ERROR_CHARS)
                .startsWith("java.lang.IllegalStateException: yyy")
                .endsWith("...");
        assertThat(DeadLetter.describe(plain)).isEqualTo(RecordException.class.getName() + ": message of 9 bytes");
    }

    @Test
    void earlierDeadLetterHeadersAreReplacedNotRepeated() {
        RecordMeta replayed = meta(List.of(Header.of(DeadLetter.STAGE_HEADER, "decode"), Header.of("trace", "t")));
        RecordException error = RecordException.at(replayed, "orders", RecordException.DECODE, "bad", null);

        List<Header> headers = new DeadLetter("p", "decode", replayed, error, 1, 1L).headers();
        assertThat(headers.stream().filter(h -> h.key().equals(DeadLetter.STAGE_HEADER)))
                .hasSize(1);
        assertThat(headers.get(0)).isEqualTo(Header.of("trace", "t"));
    }

    @Test
    void stageNamesFollowTheDocumentedShapes() {
        assertThat(List.of(
                        DeadLetter.DECODE_STAGE,
                        DeadLetter.operatorStage("a"),
                        DeadLetter.splitStage("b"),
                        DeadLetter.encodeStage("c"),
                        DeadLetter.produceStage("d")))
                .containsExactly("decode", "operator:a", "split:b", "encode:c", "produce:d");
    }
}
