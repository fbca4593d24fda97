package io.etl.kafka.source.it;

import io.etl.testkit.KafkaTestCluster;

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

    /** The pipeline {@code <uid>} reading the input in the group, with the sink {@code out} writing the output. */
    PipelineYaml yaml(KafkaTestCluster kafka) {
        return PipelineYaml.of(uid, kafka.bootstrapServers(), input, group).sink("out", output);
    }
}
