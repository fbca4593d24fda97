package io.etl.kafka.sink.internal;

import io.etl.kafka.sink.TopicSpec;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.NewTopic;

/** A section's {@code topics} entries as the admin client's {@link NewTopic}s, and where each is configured. */
final class TopicSpecs {

    private TopicSpecs() {}

    static NewTopic newTopic(TopicSpec t) {
        return new NewTopic(
                        t.name(),
                        Optional.ofNullable(t.partitions()),
                        Optional.ofNullable(t.replicationFactor()).map(Integer::shortValue))
                .configs(t.configs());
    }

    static List<NewTopic> newTopics(List<TopicSpec> topics) {
        return topics.stream().map(TopicSpecs::newTopic).toList();
    }

    /** {@code <path>.topics[i]} for each entry. */
    static List<String> paths(List<TopicSpec> topics, String path) {
        return IntStream.range(0, topics.size())
                .mapToObj(i -> path + ".topics[" + i + "]")
                .toList();
    }
}
