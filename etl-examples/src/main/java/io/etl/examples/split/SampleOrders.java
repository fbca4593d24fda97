package io.etl.examples.split;

import io.etl.core.config.PipelineConfig;
import io.etl.examples.ExampleCluster;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import java.io.PrintStream;
import java.util.Locale;

/**
 * Writes the deterministic sample orders of {@link OrderGenerator} (keyed by order id) into the input topic:
 * on a cluster the caller holds (the demo), or on the cluster a configuration names (the service mode's
 * {@code --records}).
 */
final class SampleOrders {

    private SampleOrders() {}

    /**
     * Writes {@code count} sample orders into the input topic of the cluster {@code config} names, creating the
     * topics it lacks (with the sinks' security settings).
     */
    static void writeTo(PipelineConfig config, int count, PrintStream err) {
        try (KafkaTestCluster cluster = ExampleCluster.of(config, KafkaToKafkaSplit.SOURCE, SplitSummary.BRANCHES[0])) {
            String input = SplitTopics.input(config);
            SplitTopics.ensure(cluster, input, SplitTopics.outputs(config).values());
            write(cluster, input, count, err);
        }
    }

    /** Writes {@code count} sample orders into {@code topic}, noting on {@code err} how long it took. */
    static long write(KafkaTestCluster cluster, String topic, int count, PrintStream err) {
        if (count <= 0) {
            return 0;
        }
        long t0 = System.nanoTime();
        err.printf(Locale.ROOT, "writing %,d sample orders to %s ...%n", count, topic);
        cluster.produce(topic, count, i -> TestRecord.of(OrderGenerator.id(i), OrderGenerator.json(i)));
        long ms = Math.max(1, (System.nanoTime() - t0) / 1_000_000);
        err.printf(Locale.ROOT, "wrote %,d orders in %,d ms%n", count, ms);
        return count;
    }
}
