package io.etl.examples.split;

import io.etl.core.config.PipelineConfig;
import io.etl.kafka.sink.KafkaSinkConfig;
import io.etl.kafka.source.KafkaSourceConfig;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;

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
        KafkaSourceConfig source = config.source(KafkaToKafkaSplit.SOURCE).connector(KafkaSourceConfig.class);
        try (KafkaTestCluster cluster = KafkaTestCluster.external(source.brokers(), clientProperties(config))) {
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

    /**
     * The security settings of the {@code eu} sink (typed {@code security} section and any
     * {@code security.*}/{@code ssl.*}/{@code sasl.*} passthrough keys) as client properties, so that the
     * sample orders and the admin calls reach a secured cluster the way the pipeline's producers do.
     */
    private static Map<String, String> clientProperties(PipelineConfig config) {
        KafkaSinkConfig sink = config.sink(SplitSummary.BRANCHES[0]).connector(KafkaSinkConfig.class);
        Map<String, String> props = new HashMap<>();
        sink.connectionProperties("sinks." + SplitSummary.BRANCHES[0] + ".kafka")
                .forEach((k, v) -> props.put(k, String.valueOf(v)));
        // the cluster is reached at the source's brokers
        props.remove(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
        return props;
    }
}
