package io.etl.examples.split;

import io.etl.core.config.PipelineConfig;
import io.etl.examples.ExampleCluster;
import io.etl.kafka.sink.KafkaSinkConfig;
import io.etl.kafka.source.KafkaSourceConfig;
import io.etl.testkit.KafkaTestCluster;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

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
        Map<String, Integer> partitions = new LinkedHashMap<>();
        partitions.put(input, SplitRun.PARTITIONS);
        outputs.forEach(topic -> partitions.put(topic, SplitRun.PARTITIONS));
        ExampleCluster.createMissingTopics(cluster, partitions);
    }
}
