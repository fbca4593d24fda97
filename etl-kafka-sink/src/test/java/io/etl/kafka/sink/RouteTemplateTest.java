package io.etl.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.core.error.RecordException;
import io.etl.core.record.Header;
import io.etl.core.record.RecordMeta;
import io.etl.core.sink.Sink;
import io.etl.core.sink.SinkContext;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A sink section with a route block instead of a topic: how it binds, what it refuses, and what its route encodes. */
class RouteTemplateTest {

    private static final RecordMeta META = RecordMeta.of("orders", 0, 7);

    private static List<String> problems(String yaml) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> PipelineConfig.parse(yaml, name -> null));
        assertThat(e).as("expected a ConfigException").isNotNull();
        return e.problems().stream().map(ConfigProblem::toString).toList();
    }

    @Test
    void aRouteBlockBindsWithItsDefaults() {
        KafkaSinkConfig config =
                PipelineConfig.parse("""
                sinks:
                  tenants:
                    kafka:
                      brokers: "b:9092"
                      route:
                        topic_pattern: "orders-[a-z]+"
                        create: {partitions: 3, configs: {retention.ms: "1000"}}
                """, name -> null).sink("tenants").connector(KafkaSinkConfig.class);
        assertThat(config.topic()).isNull();
        assertThat(config.route().topicPattern()).isEqualTo("orders-[a-z]+");
        assertThat(config.route().maxTopics()).isEqualTo(RouteConfig.DEFAULT_MAX_TOPICS);
        assertThat(config.route().create().forTopic("orders-eu"))
                .isEqualTo(new TopicSpec("orders-eu", 3, null, Map.of("retention.ms", "1000")));
    }

    @Test
    void aSinkEntryNamesATopicOrARouteButNotBoth() {
        assertThat(problems("""
                sinks:
                  eu: {kafka: {brokers: "b:9092"}}
                  both: {kafka: {brokers: "b:9092", topic: x, route: {topics: [x]}}}
                """))
                .containsExactlyInAnyOrder(
                        "sinks.eu.kafka.topic: must not be blank",
                        "sinks.both.kafka.route: a route's template names no topic (the route picks one per record):"
                                + " remove topic, or route");
    }

    @Test
    void aRouteNamesItsTopicsOrAValidPatternAndABoundAboveZero() {
        assertThat(problems("""
                sinks:
                  zero: {kafka: {brokers: "b:9092", route: {topics: [x], max_topics: 0}}}
                  none: {kafka: {brokers: "b:9092", route: {}}}
                  bad: {kafka: {brokers: "b:9092", route: {topic_pattern: "orders-("}}}
                """))
                .containsExactlyInAnyOrder(
                        "sinks.zero.kafka.route.max_topics: must be greater than or equal to 1",
                        "sinks.none.kafka.route: set exactly one of topics and topic_pattern",
                        "sinks.bad.kafka.route.topic_pattern: is not a regular expression: Unclosed group");
    }

    @Test
    void theDeadLetterSectionNeedsATopicAndNoRoute() {
        assertThat(problems("""
                dead_letter: {kafka: {brokers: "b:9092", route: {topics: [x]}}}
                """))
                .contains(
                        "dead_letter.kafka.topic: must not be blank",
                        "dead_letter.kafka.route: has no meaning here: dead letters go to one topic");
    }

    @Test
    void aSectionWithATopicIsNoTemplateAndATemplateIsNoPlainSink() {
        KafkaSink<Object> plain = KafkaSink.from(
                        "eu",
                        KafkaSinkConfig.custom()
                                .brokers("b:9092")
                                .topic("orders-eu")
                                .build(),
                        null)
                .json();
        assertThatThrownBy(() -> plain.route("by-tenant", v -> "x"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("sinks.eu.kafka: route 'by-tenant' needs a template section");
        KafkaSink<Object> template = KafkaSink.from(
                        "tenants", KafkaSinkConfig.routeTemplate("b:9092", RouteConfig.matching("orders-.*")), null)
                .json();
        SinkContext context = new SinkContext("p", "tenants", new SimpleMeterRegistry(), Tags.empty(), "run");
        assertThatThrownBy(() -> template.openWriter(context))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        "sinks.tenants.kafka.topic: must not be blank: this section is a route's" + " template");
    }

    @Test
    void aValueWhoseTopicIsNotAllowedOrUnknownIsARouteRecordErrorBeforeAnyIO() {
        Sink<String, KafkaMessage> route = KafkaSink.from(
                        "tenants",
                        KafkaSinkConfig.routeTemplate("b:9092", RouteConfig.toTopics(List.of("orders-eu"))),
                        null)
                .<String>json(v -> v)
                .route("by-tenant", v -> v.isEmpty() ? null : "orders-" + v);
        RecordException notAllowed = catchThrowableOfType(
                RecordException.class, () -> route.encoder().encode("us", META, 0));
        assertThat(notAllowed.reason()).isEqualTo(RecordException.ROUTE);
        assertThat(notAllowed.detail())
                .isEqualTo("topic 'orders-us' is not allowed by sinks.tenants.kafka.route (topics [orders-eu])");
        RecordException none = catchThrowableOfType(
                RecordException.class, () -> route.encoder().encode("", META, 0));
        assertThat(none.detail()).isEqualTo("the topic function gave no topic");
        Sink<String, KafkaMessage> throwing = KafkaSink.from(
                        "tenants", KafkaSinkConfig.routeTemplate("b:9092", RouteConfig.matching(".*")), null)
                .<String>json(v -> v)
                .route("by-tenant", v -> {
                    throw new IllegalStateException("no tenant in " + v);
                });
        RecordException threw = catchThrowableOfType(
                RecordException.class, () -> throwing.encoder().encode("x", META, 0));
        assertThat(threw.reason()).isEqualTo(RecordException.ROUTE);
        assertThat(threw.detail())
                .isEqualTo("the topic function threw java.lang.IllegalStateException: no tenant in x");
        assertThat(threw.getCause()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anEncoderOfAPlainSinkMayNotChooseAnotherTopic() {
        KafkaSink<String> sink = KafkaSink.from(
                        "eu",
                        KafkaSinkConfig.custom()
                                .brokers("b:9092")
                                .topic("orders-eu")
                                .build(),
                        null)
                .with((String v, RecordMeta meta) ->
                        KafkaMessage.of(null, new byte[0]).withTopic(v));
        assertThat(sink.encoder().encode("orders-eu", META, 0).topic()).isEqualTo("orders-eu");
        RecordException e =
                catchThrowableOfType(RecordException.class, () -> sink.encoder().encode("orders-us", META, 0));
        assertThat(e.reason()).isEqualTo(RecordException.ENCODE);
        assertThat(e.detail())
                .isEqualTo("the encoder chose topic 'orders-us' but the sink writes topic 'orders-eu'; a route"
                        + " chooses topics with its topic function");
    }

    @Test
    void aMessagesTopicIsPartOfItsIdentity() {
        KafkaMessage m = KafkaMessage.of(null, new byte[] {1});
        assertThat(m.withTopic("a")).isNotEqualTo(m).isNotEqualTo(m.withTopic("b"));
        assertThat(m.withTopic("a").withHeader(Header.of("h", "v")).topic()).isEqualTo("a");
        assertThat(m.withTopic("a").toString()).endsWith(", topic=a]");
    }
}
