package io.etl.core.internal.config;

import static io.etl.core.internal.config.Configs.parse;
import static io.etl.core.internal.config.Configs.problems;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.config.ConnectorConfigType;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.SinkSection;
import io.etl.core.error.ErrorPolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConnectorSectionsTest {

    @Test
    void connectorSectionBindsToTheRegisteredRecordAndPoolKeysToTheCore() {
        SinkSection sink = parse("""
                sinks:
                  eu:
                    kafka:
                      brokers: b
                      topic: orders-eu
                      producer: {linger.ms: "5"}
                      shards: 2
                      on_error: dead_letter
                      breaker: {enabled: false}
                """).sink("eu");

        assertThat(sink.connector()).isEqualTo("kafka");
        assertThat(sink.config())
                .isEqualTo(new FakeSinkConfig("b", "orders-eu", null, null, null, Map.of("linger.ms", "5")));
        assertThat(sink.pool().shards()).isEqualTo(2);
        assertThat(sink.pool().onError()).isEqualTo(ErrorPolicy.DEAD_LETTER);
        assertThat(sink.pool().breaker().enabled()).isFalse();
    }

    @Test
    void sourceOnErrorIsTakenOutByTheCore() {
        PipelineConfig config = parse("""
                source:
                  orders:
                    kafka: {brokers: b, topics: [orders], on_error: Dead_Letter}
                  audit:
                    kafka: {brokers: b, topics: [audit]}
                """);

        assertThat(config.source("orders").onError()).isEqualTo(ErrorPolicy.DEAD_LETTER);
        assertThat(config.source("audit").onError()).isEqualTo(ErrorPolicy.FAIL);
        assertThat(config.source("orders").connector(FakeSourceConfig.class).topics())
                .containsExactly("orders");
    }

    @Test
    void unknownConnectorIsAProblemNamingTheKnownKeys() {
        assertThat(problems("""
                sinks:
                  eu:
                    kafak: {topic: t}
                source:
                  orders:
                    http: {}
                """))
                .containsExactly(
                        "sinks.eu.kafak: unknown connector 'kafak' (known: kafka)",
                        "source.orders.http: unknown connector 'http' (known: kafka)");
    }

    @Test
    void entryMustHoldExactlyOneConnectorKey() {
        assertThat(problems("""
                sinks:
                  eu:
                    kafka: {brokers: b, topic: t}
                    other: {}
                  us:
                source: [a]
                """))
                .containsExactly(
                        "sinks.eu: has 2 connector keys (kafka, other); expected exactly one connector key (known: kafka)",
                        "sinks.us: expected exactly one connector key (known: kafka)",
                        "source: expected a mapping of named entries");
    }

    @Test
    void connectorValidationAndCheckProblemsCarryTheSectionPath() {
        assertThat(problems("""
                sinks:
                  eu:
                    kafka:
                      topic: " "
                      producer: {acks: "1"}
                """))
                .containsExactly(
                        "sinks.eu.kafka.brokers: must not be blank",
                        "sinks.eu.kafka.topic: must not be blank",
                        "sinks.eu.kafka.producer.acks: is set by the connector (always all)");
    }

    @Test
    void emptyConnectorSectionIsValidatedLikeAnEmptyMapping() {
        assertThat(problems("source: {orders: {kafka: }}"))
                .containsExactly(
                        "source.orders.kafka.brokers: must not be blank",
                        "source.orders.kafka.topics: must not be empty");
    }

    @Test
    void misspeltPoolKeyInAConnectorSectionGetsASuggestion() {
        assertThat(problems("sinks: {eu: {kafka: {brokers: b, topic: t, shard: 2}}}"))
                .containsExactly("sinks.eu.kafka.shard: unknown key (did you mean shards?)");
    }

    @Test
    void connectorTypesAreDiscoveredWithServiceLoader() {
        PipelineConfig config = PipelineConfig.parse("""
                source: {in: {fake: {brokers: b, topics: [t]}}}
                sinks: {out: {fake: {brokers: b, topic: t, shards: 3}}}
                """, name -> null);

        assertThat(config.source("in").config()).isInstanceOf(FakeSourceConfig.class);
        assertThat(config.sink("out").config()).isInstanceOf(FakeSinkConfig.class);
        assertThat(config.sink("out").pool().shards()).isEqualTo(3);
        assertThat(ConnectorRegistry.discovered().keys(ConnectorConfigType.Role.SINK))
                .containsExactly("fake");
    }

    @Test
    void withoutRegisteredConnectorsTheProblemSaysSo() {
        assertThatThrownBy(() -> ConfigLoader.parse("sinks: {eu: {kafka: {topic: t}}}", name -> null, List.of()))
                .hasMessageContaining("sinks.eu.kafka: unknown connector 'kafka' (known: none)");
    }
}
