package io.etl.kafka.source.it;

import io.etl.testkit.KafkaTestCluster;
import java.util.List;

/** The input and output topics and the consumer group of one copy-pipeline test, named uniquely. */
record RunTopics(String uid, String input, String output, String group) {

    /** Creates {@code in-<uid>} and {@code out-<uid>}, {@code partitions} each; the group is {@code group-<uid>}. */
    static RunTopics create(KafkaTestCluster kafka, String prefix, int partitions) {
        RunTopics t = named(prefix);
        kafka.createTopic(t.input, partitions);
        kafka.createTopic(t.output, partitions);
        return t;
    }

    /** The names only, for a test that creates the topics itself (the output on another cluster, say). */
    static RunTopics named(String prefix) {
        String uid = Delivery.unique(prefix);
        return new RunTopics(uid, "in-" + uid, "out-" + uid, "group-" + uid);
    }

    /**
     * {@link #yaml} with static membership ({@code group_instance_id} {@code <uid>}): a copy restarted after
     * a crash gets its partitions back as it joins, not after the dead member's session timeout.
     */
    PipelineYaml staticMemberYaml(KafkaTestCluster kafka) {
        return yaml(kafka).groupInstanceId(uid);
    }

    /**
     * Creates the input and, for each of {@code sinks}, the topic {@link #topicOf} it, {@code partitions} each;
     * returns the pipeline {@code <uid>} reading the input in the group with those sinks (the output unused).
     */
    PipelineYaml createWithSinks(KafkaTestCluster kafka, List<String> sinks, int partitions) {
        kafka.createTopic(input, partitions);
        PipelineYaml yaml = PipelineYaml.of(uid, kafka.bootstrapServers(), input, group);
        for (String sink : sinks) {
            kafka.createTopic(topicOf(sink), partitions);
            yaml.sink(sink, topicOf(sink));
        }
        return yaml;
    }

    /** The topic {@link #createWithSinks} gives sink {@code name}: {@code <name>-<uid>}. */
    String topicOf(String sink) {
        return sink + "-" + uid;
    }

    /** The pipeline {@code <uid>} reading the input in the group, with the sink {@code out} writing the output. */
    PipelineYaml yaml(KafkaTestCluster kafka) {
        return PipelineYaml.of(uid, kafka.bootstrapServers(), input, group).sink("out", output);
    }
}
