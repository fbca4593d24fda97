package io.etl.bench.impl;

import java.util.Arrays;
import java.util.function.Supplier;

/**
 * The implementations the race compares.
 *
 * <pre>{@code
 * SplitImplementation impl = Contestant.parse("streams").implementation();
 * }</pre>
 */
public enum Contestant {
    /** The etl example pipeline, {@code io.etl.examples.split.KafkaToKafkaSplit}. */
    ETL("etl", EtlSplit::new),
    /** Kafka Streams, at-least-once. */
    STREAMS("kafka-streams", StreamsSplit::new),
    /** One consumer, one producer, a hand-written loop. */
    CLIENTS("kafka-clients", ClientsSplit::new),
    /** The same loop in its common form: a flush of the producer and a commit every 100 ms. */
    CLIENTS_FLUSH("kafka-clients-flush", FlushingClientsSplit::new),
    /** The etl example pipeline with {@code pipeline.delivery: exactly_once}. */
    ETL_EOS("etl-exactly-once", () -> new EtlSplit(true)),
    /** Kafka Streams, {@code exactly_once_v2}. */
    STREAMS_EOS("kafka-streams-exactly-once-v2", () -> new StreamsSplit(true));

    private final String label;
    private final Supplier<SplitImplementation> factory;

    Contestant(String label, Supplier<SplitImplementation> factory) {
        this.label = label;
        this.factory = factory;
    }

    /** The name in the results table. */
    public String label() {
        return label;
    }

    /** A new instance of the implementation. */
    public SplitImplementation implementation() {
        return factory.get();
    }

    /**
     * By enum name or label, ignoring case ({@code etl}, {@code streams}, {@code kafka-streams}, {@code clients},
     * {@code clients_flush}, {@code etl_eos}, {@code streams_eos}).
     */
    public static Contestant parse(String text) {
        return Arrays.stream(values())
                .filter(c -> c.name().equalsIgnoreCase(text)
                        || c.label.equalsIgnoreCase(text)
                        || c.name().equalsIgnoreCase(text.replace('-', '_')))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown implementation '" + text
                        + "'; expected one of etl, streams, clients, clients_flush, etl_eos, streams_eos"));
    }
}
