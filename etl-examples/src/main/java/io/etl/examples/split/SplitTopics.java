package io.etl.examples.split;

import io.etl.core.config.PipelineConfig;
import io.etl.kafka.sink.KafkaSinkConfig;
import io.etl.kafka.source.KafkaSourceConfig;
import io.etl.testkit.KafkaTestCluster;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;

/**
 * The topics of a {@code kafka_to_kafka_split} configuration (its one input topic and the output topic of
 * each branch), and creating those a cluster lacks, with {@link SplitRun#PARTITIONS} partitions each.
 */
final class SplitTopics {

    private SplitTopics() {}

    /** The one topic the source reads. */
    static String input(PipelineConfig config) {
        KafkaSourceConfig source = config.source(KafkaToKafkaSplit.SOURCE).connector(KafkaSourceConfig.class);
        if (source.topics().size() != 1) {
            throw new IllegalArgumentException("source." + KafkaToKafkaSplit.SOURCE
                    + ".kafka.topics: this example reads exactly one topic, found " + source.topics());
        }
        return source.topics().get(0);
    }

    /** The topic of each branch, in the order of {@link SplitSummary#BRANCHES}. */
    static Map<String, String> outputs(PipelineConfig config) {
        Map<String, String> topics = new LinkedHashMap<>();
        for (String branch : SplitSummary.BRANCHES) {
            topics.put(
                    branch, config.sink(branch).connector(KafkaSinkConfig.class).topic());
        }
        return topics;
    }

    /** Creates {@code input} and {@code outputs} where {@code cluster} does not have them yet. */
    static void ensure(KafkaTestCluster cluster, String input, Collection<String> outputs) {
        Set<String> existing;
        try (Admin admin = cluster.newAdmin()) {
            existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while listing topics", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot list the topics of " + cluster.bootstrapServers() + ": " + e, e);
        }
        List<String> wanted = new ArrayList<>();
        wanted.add(input);
        wanted.addAll(outputs);
        for (String topic : wanted) {
            if (!existing.contains(topic)) {
                cluster.createTopic(topic, SplitRun.PARTITIONS);
                existing = new HashSet<>(existing);
                existing.add(topic);
            }
        }
    }
}
