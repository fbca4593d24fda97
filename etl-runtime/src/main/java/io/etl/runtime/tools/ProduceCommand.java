package io.etl.runtime.tools;

import io.etl.core.error.ErrorText;
import io.etl.runtime.ExitCodes;
import io.etl.runtime.Main;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code produce TOPIC}: writes one record per line of standard input (or {@code --file}) as it is read, blank lines
 * skipped.
 * A line is the value as it is ({@code --format text}), a JSON document checked to be one ({@code json}), or
 * whatever a registered {@link RecordFormat} reads; {@code --key-separator} splits a key off the front of each line,
 * {@code --header} adds headers to every record. Writes with an idempotent producer and {@code acks=all}, and
 * returns once every record is acknowledged.
 */
@Command(
        name = "produce",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = {
            "Writes one record per line of standard input or --file, blank lines skipped.",
            "Waits until every record is acknowledged by all in-sync replicas."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every record written",
            "1:the cluster refused or could not be reached, or a line is not of the format: the records before it"
                    + " are written, it and the rest are not",
            "2:usage error"
        })
public final class ProduceCommand extends ToolCommand {

    @CommandLine.Mixin
    private ClusterOptions cluster;

    @Parameters(paramLabel = "TOPIC", description = "The topic to write.")
    private String topic;

    @Option(names = "--file", paramLabel = "FILE", description = "Read the lines from FILE instead of standard input.")
    private Path file;

    @Option(
            names = {"-K", "--key-separator"},
            paramLabel = "SEP",
            description = "Each line is KEY SEP VALUE: the key is the text before the first SEP. Default: no key.")
    private String keySeparator;

    @Option(
            names = {"-H", "--header"},
            paramLabel = "KEY=VALUE",
            description = "A header on every record (repeatable).")
    private Map<String, String> headers = new LinkedHashMap<>();

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            defaultValue = "text",
            description = "How a line becomes a value: text (as it is), json (as it is, checked to be JSON), hex,"
                    + " base64, or a registered format. Default: ${DEFAULT-VALUE}.")
    private String format;

    @Option(
            names = "--key-format",
            paramLabel = "FORMAT",
            defaultValue = "text",
            description = "How the key part of a line (--key-separator) becomes the key, as --format for values."
                    + " Default: ${DEFAULT-VALUE}.")
    private String keyFormat;

    @Option(
            names = "--format-option",
            paramLabel = "KEY=VALUE",
            description = "A setting of the formats, e.g. what a schema format needs (repeatable).")
    private Map<String, String> formatOptions = new LinkedHashMap<>();

    @Option(
            names = "--partition",
            paramLabel = "P",
            description = "Write every record to partition P. Default: by key (the producer's partitioner).")
    private Integer partition;

    @Override
    int run(PrintWriter out, PrintWriter err) throws IOException {
        RecordFormat valueFormat = format("--format", format);
        RecordFormat keys = format("--key-format", keyFormat);
        if (keySeparator == null && !"text".equalsIgnoreCase(keyFormat)) {
            throw usage("--key-format needs --key-separator: the key is the part of each line before it");
        }
        try (Cluster c = cluster.cluster(topic)) {
            RecordFormat.Context context = new RecordFormat.Context(
                    topic,
                    formatOptions,
                    c.section() == null ? null : c.section().config());
            c.requireReachable();
            requireTopic(c);
            KeyAndValueFormats formats = KeyAndValueFormats.open(valueFormat, keys, context);
            int sent;
            try (BufferedReader in = file != null
                            ? Files.newBufferedReader(file, StandardCharsets.UTF_8)
                            : new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                    KafkaProducer<byte[], byte[]> producer = c.producer()) {
                sent = send(c, producer, in, formats);
            }
            out.println("produced " + sent + " record(s) to " + topic);
            return ExitCodes.OK;
        }
    }

    /**
     * Sends a record per line as it is read, then waits for every acknowledgement; returns how many were written. A
     * line that is not of the format stops it: the records before it are written, that line and the rest are not.
     */
    private int send(Cluster c, KafkaProducer<byte[], byte[]> producer, BufferedReader in, KeyAndValueFormats formats)
            throws IOException {
        String source = file == null ? "standard input" : file.toString();
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        String line;
        int number = 0;
        ToolException badLine = null;
        while (badLine == null && (line = in.readLine()) != null) {
            number++;
            if (line.isBlank()) {
                continue;
            }
            try {
                acks.add(producer.send(record(line, formats)));
            } catch (IllegalArgumentException e) {
                badLine = ToolException.failed(source + " line " + number + ": " + e.getMessage());
            }
        }
        producer.flush();
        int written = awaitAcks(c, acks);
        if (badLine != null) {
            throw ToolException.failed(badLine.getMessage() + " (" + written + " record(s) before it written)");
        }
        return written;
    }

    /** The record of one line; an {@link IllegalArgumentException} saying what is wrong with it. */
    private ProducerRecord<byte[], byte[]> record(String line, KeyAndValueFormats formats) {
        String key = null;
        String value = line;
        if (keySeparator != null) {
            int at = line.indexOf(keySeparator);
            if (at < 0) {
                throw new IllegalArgumentException("no key separator '" + keySeparator + "'");
            }
            key = line.substring(0, at);
            value = line.substring(at + keySeparator.length());
        }
        byte[] bytes;
        try {
            bytes = formats.values().encode(value, formats.valueContext());
        } catch (Exception e) {
            throw new IllegalArgumentException("not " + formats.values().name() + ": " + oneLine(e), e);
        }
        byte[] keyBytes = null;
        if (key != null) {
            try {
                keyBytes = formats.keys().encode(key, formats.keyContext());
            } catch (Exception e) {
                throw new IllegalArgumentException("key not " + formats.keys().name() + ": " + oneLine(e), e);
            }
        }
        RecordHeaders recordHeaders = new RecordHeaders();
        headers.forEach((k, v) -> recordHeaders.add(k, v.getBytes(StandardCharsets.UTF_8)));
        return new ProducerRecord<>(topic, partition, null, keyBytes, bytes, recordHeaders);
    }

    private void requireTopic(Cluster c) {
        try {
            c.admin()
                    .describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(c.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw ToolException.failed("topic '" + topic + "' does not exist on " + c.brokers()
                        + "; create it with `topics create " + topic + "`");
            }
            throw ToolException.failed(
                    "cannot describe topic '" + topic + "': " + e.getCause().getMessage());
        } catch (TimeoutException e) {
            throw ToolException.failed("cannot describe topic '" + topic + "' within "
                    + c.timeout().toSeconds() + "s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ToolException.failed("interrupted");
        }
    }

    /** Waits for each acknowledgement in order; returns how many records were written. */
    private static int awaitAcks(Cluster c, List<Future<RecordMetadata>> acks) {
        int written = 0;
        for (Future<RecordMetadata> ack : acks) {
            try {
                ack.get(c.timeout().toMillis(), TimeUnit.MILLISECONDS);
                written++;
            } catch (ExecutionException e) {
                throw ToolException.failed("record " + (written + 1) + " of " + acks.size() + " was refused: "
                        + oneLine(e.getCause()) + " (" + written + " written before it)");
            } catch (TimeoutException e) {
                throw ToolException.failed("record " + (written + 1) + " was not acknowledged within "
                        + c.timeout().toSeconds() + "s (" + written + " written before it)");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw ToolException.failed("interrupted after " + written + " record(s)");
            }
        }
        return written;
    }

    private static String oneLine(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return ErrorText.oneLine(message);
    }
}
