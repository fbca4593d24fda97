package io.etl.examples.avro;

import io.etl.core.config.PipelineConfig;
import io.etl.kafka.sink.KafkaSinkConfig;
import io.etl.kafka.source.KafkaSourceConfig;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The topics of an {@code avro_to_avro} configuration: the payments it reads, the ledger it writes and its
 * dead letters.
 */
record AvroTopics(String payments, String ledger, String deadLetters) {

    /** Partitions of the payments and ledger topics the example creates; the dead letters get one. */
    static final int PARTITIONS = 3;

    static AvroTopics of(PipelineConfig config) {
        KafkaSourceConfig source = config.source("payments").connector(KafkaSourceConfig.class);
        String ledger = config.sink("ledger").connector(KafkaSinkConfig.class).topic();
        String deadLetters = config.deadLetter()
                .orElseThrow(() -> new IllegalStateException("the configuration has no dead_letter section"))
                .connector(KafkaSinkConfig.class)
                .topic();
        return new AvroTopics(source.topics().get(0), ledger, deadLetters);
    }

    /** Each topic with the partitions the example gives it. */
    Map<String, Integer> partitions() {
        Map<String, Integer> partitions = new LinkedHashMap<>();
        partitions.put(payments, PARTITIONS);
        partitions.put(ledger, PARTITIONS);
        partitions.put(deadLetters, 1);
        return partitions;
    }
}
