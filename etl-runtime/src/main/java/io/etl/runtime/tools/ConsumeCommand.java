package io.etl.runtime.tools;

import io.etl.core.error.RetryableException;
import io.etl.runtime.ExitCodes;
import io.etl.runtime.Main;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code consume TOPIC}: prints the records of a topic, one a line: {@code <topic>-<partition>@<offset>}, the key,
 * the headers and the value. It reads from the beginning (or an offset, or a point in time) to the end the topic had
 * when it started, or {@code --max} records, or on and on with {@code --follow}. It joins no consumer group, so no
 * pipeline's offsets move.
 */
@Command(
        name = "consume",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = {
            "Prints a topic's records, one a line: topic-partition@offset, key, headers, value.",
            "Reads from the beginning (or --offset, or --from-time) to the end the topic had when it started, or"
                    + " --max records, or on with --follow. Joins no consumer group."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:read to the end (or --max)", "1:the cluster could not be reached", "2:usage error"})
public final class ConsumeCommand extends ToolCommand {

    @CommandLine.Mixin
    private ClusterOptions cluster;

    @Parameters(paramLabel = "TOPIC", description = "The topic to read.")
    private String topic;

    @ArgGroup(exclusive = true)
    private Start start = new Start();

    /** Where reading starts; from the beginning when none is given. */
    static final class Start {
        @Option(names = "--from-beginning", description = "Read from the first record (the default).")
        boolean beginning;

        @Option(names = "--from-end", description = "Read only records written from now on (with --follow).")
        boolean end;

        @Option(
                names = "--offset",
                paramLabel = "OFFSET",
                description = "Read each partition from this offset (or its first record, if that is later).")
        Long offset;

        @Option(
                names = "--from-time",
                paramLabel = "DATETIME",
                description = "Read from the first record at or after this time: 2026-12-07T10:15:00Z,"
                        + " 2026-12-07T10:15 (local), 2026-12-07, or -2h (ago).")
        String time;
    }

    @Option(
            names = {"-p", "--partition"},
            paramLabel = "P",
            description = "Read only these partitions (repeatable).")
    private List<Integer> partitions = new ArrayList<>();

    @Option(
            names = {"-n", "--max"},
            paramLabel = "N",
            description = "Stop after N records.")
    private Long max;

    @Option(
            names = {"-f", "--follow"},
            description = "Keep reading new records until Ctrl-C.")
    private boolean follow;

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            defaultValue = "text",
            description = "How a value is printed: text (UTF-8), json, hex, base64, or a registered format."
                    + " Default: ${DEFAULT-VALUE}.")
    private String format;

    @Option(
            names = "--key-format",
            paramLabel = "FORMAT",
            defaultValue = "text",
            description = "How a key is printed, as --format for values. Default: ${DEFAULT-VALUE}.")
    private String keyFormat;

    @Option(names = "--format-option", paramLabel = "KEY=VALUE", description = "A setting of the formats (repeatable).")
    private Map<String, String> formatOptions = new LinkedHashMap<>();

    @Option(names = "--value-only", description = "Print only the values, one a line.")
    private boolean valueOnly;

    @Option(names = "--timestamps", description = "Also print each record's timestamp.")
    private boolean timestamps;

    @Override
    int run(PrintWriter out, PrintWriter err) {
        if (max != null && max < 1) {
            throw usage("--max must be at least 1, got " + max);
        }
        if (start.end && !follow) {
            throw usage("--from-end reads only new records: add --follow");
        }
        RecordFormat valueFormat = format("--format", format);
        RecordFormat keys = format("--key-format", keyFormat);
        Instant from;
        try {
            from = start.time == null ? null : DateTimes.parse(start.time, Clock.systemDefaultZone());
        } catch (IllegalArgumentException e) {
            throw usage("--from-time: " + e.getMessage());
        }
        try (Cluster c = cluster.cluster(topic).requireReachable();
                KafkaConsumer<byte[], byte[]> consumer = c.consumer()) {
            RecordFormat.Context context = new RecordFormat.Context(
                    topic,
                    formatOptions,
                    c.section() == null ? null : c.section().config());
            KeyAndValueFormats formats = KeyAndValueFormats.open(valueFormat, keys, context);
            List<TopicPartition> assigned = partitionsOf(consumer, c.timeout());
            consumer.assign(assigned);
            Map<TopicPartition, Long> ends = Offsets.list(c, assigned, OffsetSpec.latest());
            seek(c, consumer, assigned, from);
            long printed = 0;
            long limit = max == null ? Long.MAX_VALUE : max;
            while (printed < limit && (follow || !caughtUp(consumer, ends))) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                    if (!follow && r.offset() >= ends.get(tp)) {
                        continue;
                    }
                    out.println(line(r, formats));
                    if (++printed >= limit) {
                        break;
                    }
                }
                out.flush();
            }
            return ExitCodes.OK;
        }
    }

    private List<TopicPartition> partitionsOf(KafkaConsumer<byte[], byte[]> consumer, Duration timeout) {
        List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
        if (infos == null || infos.isEmpty()) {
            throw ToolException.failed("topic '" + topic + "' does not exist");
        }
        List<TopicPartition> all = infos.stream()
                .map(i -> new TopicPartition(topic, i.partition()))
                .sorted((a, b) -> Integer.compare(a.partition(), b.partition()))
                .toList();
        if (partitions.isEmpty()) {
            return all;
        }
        for (int p : partitions) {
            if (p < 0 || p >= all.size()) {
                throw usage("--partition " + p + ": topic '" + topic + "' has partitions 0.." + (all.size() - 1));
            }
        }
        return partitions.stream()
                .distinct()
                .map(p -> new TopicPartition(topic, p))
                .toList();
    }

    private void seek(Cluster c, KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> assigned, Instant from) {
        if (start.end) {
            consumer.seekToEnd(assigned);
        } else if (start.offset != null) {
            Map<TopicPartition, Long> earliest = Offsets.list(c, assigned, OffsetSpec.earliest());
            for (TopicPartition tp : assigned) {
                consumer.seek(tp, Math.max(start.offset, earliest.get(tp)));
            }
        } else if (from != null) {
            Map<TopicPartition, Long> at = Offsets.list(c, assigned, OffsetSpec.forTimestamp(from.toEpochMilli()));
            Map<TopicPartition, Long> latest = Offsets.list(c, assigned, OffsetSpec.latest());
            for (TopicPartition tp : assigned) {
                long offset = at.getOrDefault(tp, -1L);
                consumer.seek(tp, offset < 0 ? latest.get(tp) : offset);
            }
        } else {
            consumer.seekToBeginning(assigned);
        }
    }

    private static boolean caughtUp(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> ends) {
        Map<TopicPartition, Long> positions = new HashMap<>();
        for (TopicPartition tp : ends.keySet()) {
            positions.put(tp, consumer.position(tp));
        }
        return ends.entrySet().stream().allMatch(e -> positions.get(e.getKey()) >= e.getValue());
    }

    private String line(ConsumerRecord<byte[], byte[]> r, KeyAndValueFormats formats) {
        String value = r.value() == null ? "(tombstone)" : text(r.value(), formats.values(), formats.valueContext());
        if (valueOnly) {
            return value;
        }
        StringBuilder line = new StringBuilder();
        line.append(r.topic()).append('-').append(r.partition()).append('@').append(r.offset());
        if (timestamps) {
            line.append("  ").append(Instant.ofEpochMilli(r.timestamp()));
        }
        line.append("  key=").append(r.key() == null ? "(none)" : text(r.key(), formats.keys(), formats.keyContext()));
        if (r.headers().toArray().length > 0) {
            StringJoiner h = new StringJoiner(", ", "  headers={", "}");
            for (Header header : r.headers()) {
                h.add(header.key() + "="
                        + (header.value() == null ? "null" : new String(header.value(), StandardCharsets.UTF_8)));
            }
            line.append(h);
        }
        return line.append("  ").append(value).toString();
    }

    /** A value or key in {@code valueFormat}, or as text with a note saying why it is not. */
    private static String text(byte[] value, RecordFormat valueFormat, RecordFormat.Context context) {
        try {
            return oneLine(valueFormat.decode(value, context));
        } catch (RetryableException e) {
            // the value may well be of the format: what it needs (a schema registry) did not answer
            throw ToolException.failed(
                    (context.key() ? "--key-format " : "--format ") + valueFormat.name() + ": " + e.getMessage());
        } catch (Exception e) {
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return oneLine(new String(value, StandardCharsets.UTF_8)) + "  (not " + valueFormat.name() + ": "
                    + oneLine(why) + ")";
        }
    }

    /** A value printed on one line: its line breaks escaped. */
    private static String oneLine(String text) {
        return text.replace("\r", "\\r").replace("\n", "\\n");
    }
}
