package io.etl.runtime.tools;

import io.etl.core.config.PipelineConfig;
import io.etl.core.config.SinkSection;
import io.etl.core.config.SourceSection;
import io.etl.kafka.common.KafkaSecurityConfig;
import io.etl.kafka.common.internal.ClientConnection;
import io.etl.kafka.sink.KafkaSinkConfig;
import io.etl.kafka.sink.TopicSpec;
import io.etl.kafka.source.KafkaSourceConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One Kafka connector section of a pipeline YAML, as the tools use it: where it connects, which topics it reads or
 * writes, its group.
 *
 * @param name         {@code source.<name>}, {@code sinks.<name>} or {@code dead_letter}
 * @param brokers      its bootstrap servers
 * @param security     its typed security section, or null
 * @param passthrough  its client passthrough ({@code consumer:} or {@code producer:})
 * @param topics       the topics it reads or writes (none for a source that subscribes by pattern)
 * @param topicPattern a source's pattern, or null
 * @param groupId      a source's consumer group, or null
 * @param created      topics a sink creates at start, with their settings
 * @param config       the section's typed record ({@link KafkaSourceConfig} or {@link KafkaSinkConfig})
 */
record KafkaSection(
        String name,
        String brokers,
        KafkaSecurityConfig security,
        Map<String, String> passthrough,
        List<String> topics,
        String topicPattern,
        String groupId,
        List<TopicSpec> created,
        Object config) {

    /** The section's key path, e.g. {@code sinks.out.kafka}. */
    String path() {
        return name + ".kafka";
    }

    boolean isSource() {
        return name.startsWith("source.");
    }

    /** The client properties of its connection: brokers and security, as the connector's own clients get them. */
    Map<String, Object> connection(String brokersInstead) {
        return new LinkedHashMap<>(ClientConnection.properties(
                brokersInstead != null ? brokersInstead : brokers, security, passthrough, path()));
    }

    /** Every Kafka section of {@code config}: sources, then sinks, then the dead-letter section. */
    static List<KafkaSection> of(PipelineConfig config) {
        List<KafkaSection> out = new ArrayList<>();
        config.sources().values().stream()
                .sorted((a, b) -> a.name().compareTo(b.name()))
                .forEach(s -> source(s).ifPresent(out::add));
        config.sinks().values().stream()
                .sorted((a, b) -> a.name().compareTo(b.name()))
                .forEach(s -> sink("sinks." + s.name(), s).ifPresent(out::add));
        config.deadLetter().flatMap(s -> sink(PipelineConfig.DEAD_LETTER, s)).ifPresent(out::add);
        return out;
    }

    private static Optional<KafkaSection> source(SourceSection s) {
        if (!(s.config() instanceof KafkaSourceConfig k)) {
            return Optional.empty();
        }
        return Optional.of(new KafkaSection(
                "source." + s.name(),
                k.brokers(),
                k.security(),
                k.consumer(),
                k.topics(),
                k.topicPattern(),
                k.groupId(),
                List.of(),
                k));
    }

    private static Optional<KafkaSection> sink(String name, SinkSection s) {
        if (!(s.config() instanceof KafkaSinkConfig k)) {
            return Optional.empty();
        }
        return Optional.of(new KafkaSection(
                name, k.brokers(), k.security(), k.producer(), List.of(k.topic()), null, null, k.topics(), k));
    }
}
