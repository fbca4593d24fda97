package io.etl.bench.impl;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one client configuration of the throughput races: the baselines set it on their clients, etl gets it
 * through its YAML ({@link #etlYaml}), so that a difference in a table comes from the engines and not from how
 * long one contestant's producer waits to fill a produce request. The example ships a shorter producer linger
 * (5 ms, Kafka's default) for latency; the paced race runs it as shipped, and {@code --etl-as-shipped} races it
 * as shipped at full speed too.
 */
public final class RaceClientSettings {

    /** {@code max.poll.records} of every consumer, and the example's own {@code max_poll_records}. */
    public static final int MAX_POLL_RECORDS = 2000;
    /** {@code linger.ms} of every producer. */
    public static final int LINGER_MS = 20;
    /** {@code batch.size} of every producer (etl's default). */
    public static final int BATCH_SIZE = 256 * 1024;

    /**
     * The system property that makes a forked etl contestant race the example's YAML as shipped
     * ({@code --etl-as-shipped}).
     */
    public static final String AS_SHIPPED_PROPERTY = "etl.bench.etl-as-shipped";

    private static final Pattern PRODUCER_LINGER = Pattern.compile("(?m)^(\\s+producer_linger:)\\s*\\S+");
    private static final Pattern MAX_POLL = Pattern.compile("(?m)^\\s+max_poll_records:\\s*(\\d+)");

    private RaceClientSettings() {}

    /**
     * {@code shipped} (the example's YAML) with every sink's {@code producer_linger} at {@value #LINGER_MS} ms;
     * everything else as shipped. Fails when the YAML no longer has the shape this edits, or when its source polls
     * other than {@value #MAX_POLL_RECORDS} records.
     */
    public static String etlYaml(String shipped) {
        Matcher poll = MAX_POLL.matcher(shipped);
        if (!poll.find() || Integer.parseInt(poll.group(1)) != MAX_POLL_RECORDS) {
            throw new IllegalStateException(
                    "the example YAML no longer polls " + MAX_POLL_RECORDS + " records as the baselines do");
        }
        Matcher linger = PRODUCER_LINGER.matcher(shipped);
        if (!linger.find()) {
            throw new IllegalStateException("the example YAML no longer sets producer_linger on its sinks");
        }
        return linger.replaceAll("$1 " + LINGER_MS + "ms");
    }

    /** How {@link #etlYaml} changes the example's YAML, for the line under a table. */
    public static String yamlChange() {
        return "every sink's `producer_linger: " + LINGER_MS + "ms` (the race's client settings, as the baselines')";
    }

    /** The YAML an etl contestant races: {@link #etlYaml}, or {@code shipped} as it is under {@link #AS_SHIPPED_PROPERTY}. */
    public static String forRace(String shipped) {
        return Boolean.getBoolean(AS_SHIPPED_PROPERTY) ? shipped : etlYaml(shipped);
    }
}
