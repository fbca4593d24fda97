package io.etl.kafka.sink.internal;

import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.KafkaSinkConfig;
import io.etl.kafka.sink.RouteConfig;

/** Where a sink's messages go: its one topic, or the topic each message of a route or of the retry writer names. */
final class Destinations {

    private Destinations() {}

    /** The topic {@code message} is written to: its own when a route set one, else the sink's. */
    static String of(KafkaMessage message, String sinkTopic) {
        return message.topic() != null ? message.topic() : sinkTopic;
    }

    /**
     * The sink's topic, or for a sink writing a topic per message what names them in errors: the route's pattern or
     * list, or the retry topics.
     */
    static String label(KafkaSinkConfig config) {
        if (config.topic() != null) {
            return config.topic();
        }
        RouteConfig route = config.route();
        if (route == null) {
            return "(retry topics)";
        }
        return route.topicPattern() != null ? "/" + route.topicPattern() + "/" : String.join("|", route.topics());
    }
}
