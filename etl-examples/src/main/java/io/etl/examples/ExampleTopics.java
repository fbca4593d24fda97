package io.etl.examples;

import io.etl.testkit.KafkaTestCluster;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;

/** Creates the topics an example's sample data needs, where the cluster does not have them yet. */
public final class ExampleTopics {

    private ExampleTopics() {}

    /**
     * Creates each topic of {@code partitions} (name to partition count) that {@code cluster} lacks; existing ones
     * are left as they are.
     */
    public static void createMissing(KafkaTestCluster cluster, Map<String, Integer> partitions) {
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
