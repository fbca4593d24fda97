package io.etl.kafka.sink.internal;

import io.etl.core.error.RecordException;
import io.etl.core.record.RecordMeta;
import io.etl.core.record.TraceContext;
import io.etl.core.sink.Encoder;
import io.etl.kafka.sink.KafkaMessage;
import java.util.function.Function;

/**
 * A route's encoder: asks the topic function where the value goes, opens that topic on its first use
 * ({@link RoutedTopics}), encodes with the template's encoder (which applies {@code max_message_bytes}), checks the
 * message against the topic's own {@code max.message.bytes}, and binds the message to the topic.
 *
 * @param <T> value type
 */
final class RouteEncoder<T> implements Encoder<T, KafkaMessage> {

    private final Function<? super T, String> destination;
    private final Encoder<T, KafkaMessage> template;
    private final RoutedTopics topics;

    RouteEncoder(Function<? super T, String> destination, Encoder<T, KafkaMessage> template, RoutedTopics topics) {
        this.destination = destination;
        this.template = template;
        this.topics = topics;
    }

    @Override
    public KafkaMessage encode(T value, RecordMeta meta, int outputIndex) {
        return encode(value, meta, outputIndex, null);
    }

    @Override
    public KafkaMessage encode(T value, RecordMeta meta, int outputIndex, TraceContext trace) {
        RoutedTopics.Topic topic = topics.topic(topicOf(value));
        KafkaMessage message = trace == null
                ? template.encode(value, meta, outputIndex)
                : template.encode(value, meta, outputIndex, trace);
        return GuardedEncoder.checkedAgainst(message, message.sizeInBytes(), topic.name(), topic.maxMessageBytes())
                .withTopic(topic.name());
    }

    private String topicOf(T value) {
        String topic;
        try {
            topic = destination.apply(value);
        } catch (RuntimeException e) {
            throw RecordException.of(
                    RecordException.ROUTE,
                    "the topic function threw " + e.getClass().getName()
                            + (e.getMessage() == null ? "" : ": " + e.getMessage()),
                    e);
        }
        if (topic == null || topic.isBlank()) {
            throw RecordException.of(RecordException.ROUTE, "the topic function gave no topic", null);
        }
        return topic;
    }

    @Override
    public long sizeOf(KafkaMessage message) {
        return template.sizeOf(message);
    }

    @Override
    public int shardHash(KafkaMessage message, RecordMeta meta) {
        return template.shardHash(message, meta);
    }
}
