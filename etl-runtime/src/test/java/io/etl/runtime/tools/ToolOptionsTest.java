package io.etl.runtime.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.runtime.ExitCodes;
import io.etl.runtime.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the tools decide before they reach a cluster: options, sections, formats, points in time. */
class ToolOptionsTest {

    private static final Clock NOW = Clock.fixed(Instant.parse("2026-12-07T12:00:00Z"), ZoneId.of("Europe/Paris"));

    @TempDir
    Path dir;

    private record Result(int exit, String out, String err) {}

    private static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Result(exit, out.toString(), err.toString());
    }

    private Path yaml() throws Exception {
        return Files.writeString(dir.resolve("pipeline.yaml"), """
                source:
                  in:
                    kafka: {brokers: "127.0.0.1:1", topics: [orders], group_id: orders-copy}
                sinks:
                  out:
                    kafka: {brokers: "127.0.0.1:2", topic: orders-copy}
                """);
    }

    @Test
    void pointsInTimeInEveryFormTheOptionsAccept() {
        assertThat(DateTimes.parse("2026-12-07T10:15:00Z", NOW)).isEqualTo(Instant.parse("2026-12-07T10:15:00Z"));
        assertThat(DateTimes.parse("2026-12-07T10:15:00+01:00", NOW)).isEqualTo(Instant.parse("2026-12-07T09:15:00Z"));
        assertThat(DateTimes.parse("2026-12-07T10:15", NOW)).isEqualTo(Instant.parse("2026-12-07T09:15:00Z"));
        assertThat(DateTimes.parse("2026-12-07", NOW)).isEqualTo(Instant.parse("2026-12-06T23:00:00Z"));
        assertThat(DateTimes.parse("-2h", NOW)).isEqualTo(Instant.parse("2026-12-07T10:00:00Z"));
        assertThatThrownBy(() -> DateTimes.parse("yesterday", NOW.withZone(ZoneOffset.UTC)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("'yesterday' is not a point in time; use ");
    }

    @Test
    void theJsonFormatChecksAndKeepsTheTextTheOthersRoundTrip() throws Exception {
        RecordFormat.Context context = new RecordFormat.Context("t", Map.of(), null);
        RecordFormat json = RecordFormats.named("JSON");

        assertThat(json.encode("{\"id\": 1}", context)).isEqualTo("{\"id\": 1}".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> json.encode("{\"id\":", context)).isNotNull();
        for (String name : new String[] {"text", "hex", "base64"}) {
            RecordFormat f = RecordFormats.named(name);
            byte[] bytes = {0x41, 0x0a, 0x42};
            assertThat(f.encode(f.decode(bytes, context), context)).as(name).isEqualTo(bytes);
        }
        assertThatThrownBy(() -> RecordFormats.named("avro"))
                .hasMessageStartingWith("unknown format 'avro'; known: text, json, hex, base64")
                .hasMessageContaining("etl-schema-registry");
    }

    @Test
    void anUnknownSectionIsAUsageErrorListingTheSections() throws Exception {
        Result r = run("consume", "orders", "--config", yaml().toString(), "--section", "sinks.nope");

        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err())
                .contains("--section sinks.nope: no such Kafka section in")
                .contains("(have: source.in, sinks.out)");
    }

    @Test
    void theSectionThatNamesTheTopicGivesTheBrokers() throws Exception {
        Result sink = run("consume", "orders-copy", "--config", yaml().toString(), "--timeout", "1s");
        Result source = run("consume", "other", "--config", yaml().toString(), "--timeout", "1s");

        assertThat(sink.exit()).isEqualTo(ExitCodes.FAILED);
        assertThat(sink.err()).startsWith("error: sinks.out.kafka").contains("127.0.0.1:2");
        assertThat(source.err()).startsWith("error: source.in.kafka").contains("127.0.0.1:1");
    }

    @Test
    void optionsThatCannotWorkTogetherAreUsageErrors() throws Exception {
        assertThat(run("consume", "t", "--from-end").err()).contains("--from-end reads only new records: add --follow");
        assertThat(run("consume", "t", "--from-beginning", "--offset", "3").exit())
                .isEqualTo(ExitCodes.USAGE);
        assertThat(run("produce", "t", "--format", "yaml").err()).contains("unknown format 'yaml'");
        assertThat(run("offsets", "reset", "--group", "g").err()).contains("Error: Missing required argument");
        assertThat(run("offsets", "show").err()).contains("name the consumer group with --group");
        assertThat(run("dead-letters", "redrive").err()).contains("name the dead-letter topic with --from");
        assertThat(run("dead-letters", "redrive", "--from", "dlq", "--since", "yesterday")
                        .err())
                .contains("--since: 'yesterday' is not a point in time");
        assertThat(run("dead-letters", "redrive", "--from", "dlq", "--since", "-1h", "--until", "-2h")
                        .err())
                .contains("--since (")
                .contains(") must be before --until (");
        assertThat(run("topics", "delete", "__consumer_offsets").err()).contains("is an internal topic");
    }
}
