package io.etl.examples;

import io.etl.core.config.PipelineConfig;
import io.etl.kafka.sink.KafkaSinkConfig;
import io.etl.kafka.source.KafkaSourceConfig;
import io.etl.testkit.KafkaTestCluster;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;

/** The cluster an example's sample data goes to with {@code --records}, and the topics it needs there. */
public final class ExampleCluster {

    private ExampleCluster() {}

    /**
     * The cluster at the brokers of source {@code source} in {@code config}, reached with the security settings of
     * sink {@code sink} (its typed {@code security} section and passthrough keys), as the pipeline's producers reach
     * it.
     */
    public static KafkaTestCluster of(PipelineConfig config, String source, String sink) {
        Map<String, String> props = new HashMap<>();
        config.sink(sink)
                .connector(KafkaSinkConfig.class)
                .connectionProperties("sinks." + sink + ".kafka")
                .forEach((k, v) -> props.put(k, String.valueOf(v)));
        props.remove(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG); // the cluster is reached at the source's brokers
        return KafkaTestCluster.external(
                config.source(source).connector(KafkaSourceConfig.class).brokers(), props);
    }

    /**
     * Creates each topic of {@code partitions} (name to partition count) that {@code cluster} lacks; existing ones
     * are left as they are.
     */
    public static void createMissingTopics(KafkaTestCluster cluster, Map<String, Integer> partitions) {
        Set<String> existing;
        try (Admin admin = cluster.newAdmin()) {
            existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while listing topics", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "brokers " + cluster.bootstrapServers() + " did not list their topics within 30 s: are they"
                            + " reachable at that address?",
                    e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "cannot list the topics of " + cluster.bootstrapServers() + ": " + e.getCause(), e);
        }
        partitions.forEach((topic, count) -> {
            if (!existing.contains(topic)) {
                cluster.createTopic(topic, count);
            }
        });
    }
}
