package io.etl.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.etl.core.config.DataSize;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.SinkSection;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.core.internal.config.AsBound;
import io.etl.kafka.common.SaslMechanism;
import io.etl.kafka.common.SecurityProtocol;
import io.etl.kafka.sink.internal.ProducerSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class KafkaSinkConfigTest {

    private static List<String> problems(String yaml) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> PipelineConfig.parse(yaml, name -> null));
        assertThat(e).as("expected a ConfigException").isNotNull();
        return e.problems().stream().map(ConfigProblem::toString).toList();
    }

    @Test
    void formerAdminTimeoutKeyFailsNamingItsNewName() {
        assertThat(problems("""
                sinks:
                  eu:
                    kafka: {brokers: 'b:9092', topic: orders-eu, admin_timeout: 5s}
                """))
                .containsExactly("sinks.eu.kafka.admin_timeout: unknown key (renamed to startup_timeout)");
    }

    @Test
    void minimalSectionGetsTheDocumentedDefaults() {
        SinkSection section = PipelineConfig.parse("""
                sinks:
                  eu:
                    kafka: {brokers: 'b:9092', topic: orders-eu}
                """, name -> null).sink("eu");
        KafkaSinkConfig config = section.connector(KafkaSinkConfig.class);
        assertThat(config.deliveryTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.maxMessageBytes()).isEqualTo(DataSize.ofBytes(1_000_000));
        assertThat(config.statisticsInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.compression()).isEqualTo(Compression.NONE);
        assertThat(config.producerLinger()).isEqualTo(Duration.ofMillis(5));
        assertThat(config.startupTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.topics()).isEmpty();
        assertThat(config.security()).isNull();
        assertThat(section.pool().shards()).isEqualTo(1);
    }

    @Test
    void fullSectionBinds() {
        SinkSection section = PipelineConfig.parse("""
                sinks:
                  eu:
                    kafka:
                      brokers: 'b:9092'
                      topic: orders-eu
                      delivery_timeout: 10s
                      max_message_bytes: 2MiB
                      statistics_interval: 0s
                      compression: lz4
                      producer_linger: 20ms
                      startup_timeout: 5s
                      shards: 2
                      batch: {linger: 50ms}
                      on_error: fail
                      topics:
                        - {name: orders-eu, partitions: 6, replication_factor: 1, configs: {cleanup.policy: compact}}
                      security:
                        protocol: sasl_ssl
                        sasl: {mechanism: scram-sha-512, username: etl, password: "${PW}"}
                      producer: {batch.size: "524288", max.in.flight.requests.per.connection: "5"}
                """, name -> name.equals("PW") ? "pw" : null)
                .sink("eu");
        KafkaSinkConfig config = section.connector(KafkaSinkConfig.class);
        assertThat(config.maxMessageBytes().bytes()).isEqualTo(2 * 1024 * 1024);
        assertThat(config.compression()).isEqualTo(Compression.LZ4);
        assertThat(config.statisticsInterval()).isZero();
        assertThat(config.topics())
                .containsExactly(TopicSpec.custom()
                        .name("orders-eu")
                        .partitions(6)
                        .replicationFactor(1)
                        .configs(Map.of("cleanup.policy", "compact"))
                        .build());
        assertThat(config.security().protocol()).isEqualTo(SecurityProtocol.SASL_SSL);
        assertThat(config.security().sasl().mechanism()).isEqualTo(SaslMechanism.SCRAM_SHA_512);
        assertThat(config.security().sasl().password()).isEqualTo("pw");
        assertThat(config.producer()).containsEntry("batch.size", "524288");
        assertThat(section.pool().shards()).isEqualTo(2);
        assertThat(config.producerLinger()).isEqualTo(Duration.ofMillis(20));
        assertThat(section.pool().batch().linger()).isEqualTo(Duration.ofMillis(50));
    }

    @Test
    void formerLingerKeyFailsWithItsPathAndTheKeyThatReplacedIt() {
        assertThat(problems("sinks: {eu: {kafka: {brokers: 'b:9092', topic: t, linger: 20ms}}}"))
                .containsExactly("sinks.eu.kafka.linger: unknown key (renamed to producer_linger)");
    }

    static List<String> deniedKeys() {
        return List.copyOf(ProducerSettings.DENIED.keySet());
    }

    @ParameterizedTest
    @MethodSource("deniedKeys")
    void everyDeniedPassthroughKeyFailsWithItsPathAndReason(String key) {
        assertThat(problems("""
                sinks:
                  eu:
                    kafka:
                      brokers: 'b:9092'
                      topic: t
                      producer: {"%s": "x"}
                """.formatted(key)))
                .containsExactly(
                        "sinks.eu.kafka.producer." + key + ": is not allowed: " + ProducerSettings.DENIED.get(key));
    }

    @Test
    void theDenylistCoversTheKeysTheSinkOwns() {
        assertThat(ProducerSettings.DENIED)
                .containsKeys(
                        "bootstrap.servers",
                        "delivery.timeout.ms",
                        "max.request.size",
                        "acks",
                        "enable.idempotence",
                        "transactional.id",
                        "key.serializer",
                        "value.serializer",
                        "compression.type");
        assertThat(ProducerSettings.DENIED.get("acks")).contains("at-most-once");
    }

    @Test
    void librdkafkaNamesAPortedConfigCarriesAreDeniedWithTheTypedReplacement() {
        assertThat(ProducerSettings.DENIED.get("statistics.interval.ms")).contains("'statistics_interval'");
        assertThat(ProducerSettings.DENIED.get("message.timeout.ms")).contains("'delivery_timeout'");
        assertThat(ProducerSettings.DENIED.get("queue.buffering.max.ms")).contains("'producer_linger'");
        assertThat(ProducerSettings.DENIED.get("message.max.bytes")).contains("'max_message_bytes'");
        assertThat(ProducerSettings.DENIED.get("request.required.acks")).contains("at-most-once");
        assertThat(ProducerSettings.DENIED.get("delivery.report.only.error")).contains("acknowledge");
        assertThat(ProducerSettings.DENIED.get("enable.gapless.guarantee")).contains("retry");
        assertThat(problems(
                        "sinks: {eu: {kafka: {brokers: 'b:9092', topic: t, producer: {batch.num.messages: '500'}}}}"))
                .containsExactly("sinks.eu.kafka.producer.batch.num.messages: is a librdkafka property the Java"
                        + " producer does not know; use batch.size (in bytes) for the producer, batch.max_records for"
                        + " the framework batch");
    }

    @Test
    void passthroughValuesAreCheckedAgainstTheProducersOwnDefinitions() {
        assertThat(problems("""
                sinks:
                  eu:
                    kafka:
                      brokers: 'b:9092'
                      topic: t
                      producer: {retries: "x", batch.size: "-5", buffer.memory: "1048576"}
                """))
                .containsExactly(
                        "sinks.eu.kafka.producer.batch.size: invalid value '-5' (expected int, [0,...])",
                        "sinks.eu.kafka.producer.retries: invalid value 'x' (expected int, [0,...,2147483647])");
    }

    @Test
    void dumpingALoadedConfigNeverShowsAPassthroughSecret() {
        PipelineConfig config = PipelineConfig.parse("""
                sinks:
                  eu:
                    kafka:
                      brokers: 'b:9092'
                      topic: t
                      producer:
                        security.protocol: SASL_SSL
                        sasl.mechanism: PLAIN
                        sasl.jaas.config: 'PlainLoginModule required username="u" password="${PW}";'
                """, name -> name.equals("PW") ? "s3cr3t-value" : null);

        assertThat(config.sink("eu").connector(KafkaSinkConfig.class).producer().get("sasl.jaas.config"))
                .contains("s3cr3t-value");
        assertThat(config.toString()).contains("sasl.mechanism=PLAIN").doesNotContain("s3cr3t-value");
    }

    @Test
    void unknownPassthroughKeyFailsWithASuggestion() {
        assertThat(problems("sinks: {eu: {kafka: {brokers: 'b:9092', topic: t, producer: {linger_ms: '5'}}}}"))
                .containsExactly(
                        "sinks.eu.kafka.producer.linger_ms: unknown producer property (did you mean linger.ms?)");
    }

    @Test
    void unknownAndMissingKeysFailWithTheirPaths() {
        assertThat(problems("sinks: {eu: {kafka: {topic: t, max_mesage_bytes: 1MB}}}"))
                .contains("sinks.eu.kafka.brokers: must not be blank");
        assertThat(problems("sinks: {eu: {kafka: {topic: t, max_mesage_bytes: 1MB}}}"))
                .anyMatch(p -> p.startsWith("sinks.eu.kafka.max_mesage_bytes: unknown key"));
    }

    @Test
    void securityProblemsCarryTheSectionPath() {
        assertThat(problems("""
                sinks:
                  eu:
                    kafka:
                      brokers: 'b:9092'
                      topic: t
                      security: {protocol: SSL, sasl: {mechanism: PLAIN, username: u}}
                """))
                .containsExactly(
                        "sinks.eu.kafka.security.sasl: needs protocol SASL_SSL or SASL_PLAINTEXT (protocol is SSL)",
                        "sinks.eu.kafka.security.sasl.password: is required with mechanism PLAIN");
    }

    @Test
    void theSameSecurityPropertyTypedAndPassedThroughIsAProblem() {
        assertThat(problems("""
                sinks:
                  eu:
                    kafka:
                      brokers: 'b:9092'
                      topic: t
                      security: {protocol: SASL_PLAINTEXT, sasl: {mechanism: PLAIN, username: u, password: p}}
                      producer: {sasl.mechanism: PLAIN}
                """))
                .containsExactly("sinks.eu.kafka.producer.sasl.mechanism: is also set by the typed security"
                        + " section; set it in one place");
    }

    @Test
    void passwordsNeverAppearInProblems() {
        List<String> problems = problems("""
                sinks:
                  eu:
                    kafka:
                      brokers: 'b:9092'
                      topic: t
                      security: {protocol: PLAINTEXT, sasl: {mechanism: PLAIN, username: u, password: hunter2}}
                """);
        assertThat(String.join("\n", problems)).doesNotContain("hunter2").contains("security.sasl");
    }

    @Test
    void codeBuiltConfigIsCheckedWhereItIsBuiltAndAgainWithItsPathWhenTheSinkIsMade() {
        KafkaSinkConfig config =
                KafkaSinkConfig.custom().brokers("b:9092").topic("t").build();
        ConfigException atCopy =
                catchThrowableOfType(ConfigException.class, () -> config.withProducer(Map.of("acks", "1")));
        assertThat(atCopy.problems()).extracting(ConfigProblem::path).containsExactly("producer.acks");

        // a section that breaks a rule exists only while a file is bound; the sink checks it again with its path
        KafkaSinkConfig bound = AsBound.record(() -> new KafkaSinkConfig(
                "b:9092",
                "t",
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                Map.of("acks", "1"),
                null,
                null,
                null));
        ConfigException atSink = catchThrowableOfType(ConfigException.class, () -> KafkaSink.from("x", bound, null));
        assertThat(atSink.problems()).extracting(ConfigProblem::path).containsExactly("sinks.x.kafka.producer.acks");
    }
}
