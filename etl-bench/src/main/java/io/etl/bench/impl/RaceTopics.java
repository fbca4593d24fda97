package io.etl.bench.impl;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The topics and consumer group of one run, all derived from a unique prefix so that runs never see each
 * other's data or offsets.
 *
 * <pre>{@code
 * RaceTopics topics = RaceTopics.of("race-1700000000-etl-r1");
 * topics.input();     // race-1700000000-etl-r1-orders
 * topics.outputs();   // ...-orders-eu, ...-orders-us, ...-orders-apac, ...-orders-unrouted
 * }</pre>
 *
 * @param prefix   the unique prefix
 * @param input    the input topic
 * @param eu       output for region {@code eu}
 * @param us       output for region {@code us}
 * @param apac     output for region {@code apac}
 * @param unrouted output for any other region
 * @param group    the consumer group (the Kafka Streams {@code application.id})
 */
public record RaceTopics(
        String prefix, String input, String eu, String us, String apac, String unrouted, String group) {

    /** Partitions of every topic the race creates. */
    public static final int PARTITIONS = 6;

    /** The names for {@code prefix}. */
    public static RaceTopics of(String prefix) {
        return new RaceTopics(
                prefix,
                prefix + "-orders",
                prefix + "-orders-eu",
                prefix + "-orders-us",
                prefix + "-orders-apac",
                prefix + "-orders-unrouted",
                prefix + "-group");
    }

    /** Output topics in branch order: eu, us, apac, unrouted. */
    public List<String> outputs() {
        return List.of(eu, us, apac, unrouted);
    }

    /** Every topic: the input, then the outputs. */
    public List<String> all() {
        return List.of(input, eu, us, apac, unrouted);
    }

    /**
     * The variables the example's YAML reads its brokers, topics and group from: the etl contestant's
     * environment when forked, its variable lookup in the harness's JVM (the baselines ignore them).
     */
    public Map<String, String> exampleVariables(String bootstrap) {
        Map<String, String> vars = new HashMap<>();
        vars.put("KAFKA_BROKERS", bootstrap);
        vars.put("GROUP_ID", group);
        vars.put("ORDERS_TOPIC", input);
        vars.put("ORDERS_EU_TOPIC", eu);
        vars.put("ORDERS_US_TOPIC", us);
        vars.put("ORDERS_APAC_TOPIC", apac);
        vars.put("ORDERS_UNROUTED_TOPIC", unrouted);
        return vars;
    }
}
