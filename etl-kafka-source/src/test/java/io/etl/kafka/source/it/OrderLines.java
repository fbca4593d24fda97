package io.etl.kafka.source.it;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.source.KafkaSource;
import io.etl.testkit.TestRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A pipeline shaped like one a user writes rather than like the example: JSON orders, a {@code flatMap} that
 * turns each order into one to three order lines, and a split of the lines by amount to the sinks {@code large},
 * {@code medium} and, for the rest, {@code small}; every setting at its default.
 */
final class OrderLines {

    /** The sinks of the split, in the order the test reads them. */
    static final List<String> SINKS = List.of("large", "medium", "small");

    private OrderLines() {}

    /** One line of an order: its id is {@code <order id>/<line number>}. */
    record Line(String id, String order, String customer, int line, long amountCents) {}

    /** How many lines order {@code id} has: one to three, spread over the orders of every partition. */
    static int linesOf(String id) {
        return 1 + Math.floorMod(id.hashCode(), 3);
    }

    static List<Line> lines(Orders.Order o) {
        int n = linesOf(o.id());
        List<Line> out = new ArrayList<>(n);
        long cents = Math.round(o.amount() * 100);
        for (int i = 0; i < n; i++) {
            out.add(new Line(o.id() + "/" + i, o.id(), o.customer(), i, cents * (i + 1)));
        }
        return out;
    }

    static Pipeline pipeline(PipelineConfig config) {
        return Pipeline.named("order-lines")
                .from(KafkaSource.from(config.source("orders")).json(Orders.Order.class))
                .flatMap("lines", OrderLines::lines)
                .split(
                        "by-amount",
                        s -> s.branch(
                                        "large",
                                        l -> l.amountCents() >= 100_000,
                                        KafkaSink.from(config.sink("large")).json())
                                .branch(
                                        "medium",
                                        l -> l.amountCents() >= 30_000,
                                        KafkaSink.from(config.sink("medium")).json())
                                .otherwise(KafkaSink.from(config.sink("small")).json()));
    }

    /**
     * The YAML of {@link #pipeline} with nothing but what a user must give: brokers, topics and the group. Every
     * other key (checkpoint interval, lingers, pool, session timeout, membership) is left at its default.
     */
    static String defaultYaml(String name, String brokers, String input, String group, Map<String, String> topics) {
        StringBuilder y = new StringBuilder();
        y.append("pipeline:\n  name: ").append(name).append('\n');
        y.append("source:\n  orders:\n    kafka:\n");
        y.append("      brokers: \"").append(brokers).append("\"\n");
        y.append("      topics: [").append(input).append("]\n");
        y.append("      group_id: ").append(group).append('\n');
        y.append("sinks:\n");
        for (String sink : SINKS) {
            y.append("  ").append(sink).append(":\n    kafka:\n");
            y.append("      brokers: \"").append(brokers).append("\"\n");
            y.append("      topic: ").append(topics.get(sink)).append('\n');
        }
        return y.toString();
    }

    /** How often each line id occurs over {@code records}. */
    static Map<String, Integer> lineCounts(List<TestRecord> records) {
        Map<String, Integer> counts = new HashMap<>(records.size() * 2);
        for (TestRecord r : records) {
            counts.merge(Orders.idOf(r), 1, Integer::sum);
        }
        return counts;
    }

    /** The line ids of orders {@code 0} to {@code orders - 1} that {@code counts} lacks. */
    static List<String> missing(Map<String, Integer> counts, int orders) {
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < orders; i++) {
            String id = Orders.id(i);
            for (int line = 0; line < linesOf(id); line++) {
                if (!counts.containsKey(id + "/" + line)) {
                    missing.add(id + "/" + line);
                }
            }
        }
        return missing;
    }

    /** The order number of line id {@code o-<n>/<line>}. */
    static int orderOf(String lineId) {
        return Integer.parseInt(lineId.substring(2, lineId.indexOf('/')));
    }
}
