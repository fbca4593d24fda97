package io.etl.schema.it;

import static org.awaitility.Awaitility.await;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.record.RecordMeta;
import io.etl.kafka.common.FormatContext;
import io.etl.kafka.common.SchemaRegistryConfig;
import io.etl.kafka.source.Decoder;
import io.etl.schema.SchemaEncoder;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Topics, configuration and helpers of the schema-registry pipeline ITs. */
final class SchemaPipelines {

    private SchemaPipelines() {}

    /** The topics and group of one test. */
    record Topics(String uid, String input, String output, String deadLetters, String group) {

        static Topics create(KafkaTestCluster kafka, String prefix, int partitions) {
            String uid = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
            Topics t = new Topics(uid, "in-" + uid, "out-" + uid, "dlt-" + uid, "group-" + uid);
            kafka.createTopic(t.input, partitions);
            kafka.createTopic(t.output, 1);
            kafka.createTopic(t.deadLetters, 1);
            return t;
        }

        /**
         * A pipeline reading {@link #input} and writing {@link #output}, both with the registry at
         * {@code registryUrl}; the sink may register schemas; failed records go to {@link #deadLetters}.
         */
        PipelineConfig config(KafkaTestCluster kafka, String registryUrl, String sourceOnError) {
            String yaml = """
                    pipeline:
                      name: %1$s
                      on_error: fail
                    source:
                      in:
                        kafka:
                          brokers: "%2$s"
                          topics: [%3$s]
                          group_id: %4$s
                          statistics_interval: 0s
                          on_error: %7$s
                          schema_registry:
                            url: %5$s
                            request_timeout: 2s
                    sinks:
                      out:
                        kafka:
                          brokers: "%2$s"
                          topic: %6$s
                          statistics_interval: 0s
                          batch: {linger: 5ms}
                          schema_registry:
                            url: [%5$s]
                            auto_register: true
                    dead_letter:
                      kafka:
                        brokers: "%2$s"
                        topic: %8$s
                        statistics_interval: 0s
                    checkpoint:
                      interval: 50ms
                    """.formatted(
                    uid, kafka.bootstrapServers(), input, group, registryUrl, output, sourceOnError, deadLetters);
            return PipelineConfig.parse(yaml);
        }
    }

    /** Waits until the group committed every input record, then stops the pipeline. */
    static PipelineResult runUntilCaughtUp(KafkaTestCluster kafka, RunningPipeline running, Topics t, Duration within) {
        try {
            await().atMost(within)
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> running.state().isTerminal()
                            || kafka.committedTotal(t.group()) >= kafka.endTotal(t.input()));
        } finally {
            running.stopAndWait(Duration.ofSeconds(30));
        }
        return running.result().join();
    }

    /**
     * {@code encoder} opened as a test's producer of {@code topic} with the registry at {@code url}, registering
     * schemas the subject lacks when {@code register}.
     */
    static <T> SchemaEncoder<T> producerOf(SchemaEncoder<T> encoder, String topic, String url, boolean register) {
        encoder.open(new FormatContext(
                "test producer",
                "sinks.producer.kafka",
                List.of(topic),
                SchemaRegistryConfig.custom().url(url).autoRegister(register).build(),
                new SimpleMeterRegistry(),
                null));
        return encoder;
    }

    /** The values of {@code topic}, decoded by {@code decoder} with the registry at {@code url}. */
    static <T> List<T> decodeAll(KafkaTestCluster kafka, String topic, Decoder<T> decoder, String url)
            throws Exception {
        decoder.open(new FormatContext(
                "test reader",
                "source.reader.kafka",
                List.of(topic),
                SchemaRegistryConfig.custom().url(url).build(),
                new SimpleMeterRegistry(),
                null));
        List<T> values = new ArrayList<>();
        for (TestRecord r : kafka.readAll(topic)) {
            values.add(decoder.decode(r.value(), new RecordMeta(topic, 0, 0L, 0L, r.key(), List.of(), r.value())));
        }
        return values;
    }
}
