package io.etl.bench.impl;

import java.util.Map;
import java.util.Optional;

/**
 * One contestant of the race: something that runs the {@code kafka_to_kafka_split} workload from
 * {@link RaceTopics#input()} to the outputs, at-least-once, committing its progress in
 * {@link RaceTopics#group()}. It runs until closed; the harness decides when it is done by looking at
 * the broker (output end offsets and committed offsets), never by asking the contestant.
 *
 * <pre>{@code
 * try (SplitImplementation.Running running = Contestant.STREAMS.implementation().start(bootstrap, props, topics)) {
 *     ... wait for outputs and commits ...
 * }
 * }</pre>
 */
public interface SplitImplementation {

    /** Short name used in the results table. */
    String name();

    /**
     * Whether the contestant writes in Kafka transactions: its outputs' end offsets then count transaction
     * markers too, so the harness waits for the commits and counts the outputs with a read-committed consumer.
     */
    default boolean transactional() {
        return false;
    }

    /**
     * Starts consuming and returns at once.
     *
     * @param bootstrapServers the broker
     * @param clientProperties extra client properties every Kafka client needs (security); may be empty
     * @param topics           topics and group of this run
     * @return the running contestant; closing it stops it
     */
    Running start(String bootstrapServers, Map<String, String> clientProperties, RaceTopics topics);

    /** A started contestant. */
    interface Running extends AutoCloseable {

        /** A failure that stopped the contestant, if any: the harness aborts the run on one. */
        Optional<Throwable> failure();

        /** Stops and releases everything; not timed. */
        @Override
        void close();
    }
}
