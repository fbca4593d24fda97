package io.etl.core.internal.config;

import static io.etl.core.internal.config.Configs.parse;
import static io.etl.core.internal.config.Configs.problems;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.config.BatchConfig;
import io.etl.core.config.BreakerConfig;
import io.etl.core.config.CheckpointConfig;
import io.etl.core.config.DataSize;
import io.etl.core.config.DeliveryGuarantee;
import io.etl.core.config.MetricsConfig;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.PipelineSection;
import io.etl.core.config.RetryConfig;
import io.etl.core.config.SinkPoolConfig;
import io.etl.core.config.SinkSection;
import io.etl.core.config.SourceSection;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ErrorPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

    static final String EXAMPLE = """
            pipeline:
              name: orders-split
              on_error: dead_letter
              shutdown_timeout: 90s
            source:
              orders:
                kafka:
                  brokers: ${KAFKA_BROKERS:-localhost:9092}
                  topics: [orders]
                  on_error: skip
            sinks:
              eu:
                kafka:
                  brokers: ${KAFKA_BROKERS:-localhost:9092}
                  topic: orders-eu
                  max_message_bytes: 1MB
                  shards: 4
                  batch: {max_records: 500, linger: 5ms, max_bytes: 1MiB}
                  retry: {initial_backoff: 100ms, max_backoff: 10s}
            checkpoint: {interval: 2s, drain_timeout: 1m, stalled_fail_after: 10s}
            metrics: {enabled: false, common_tags: {env: prod}}
            """;

    @Test
    void bindsEverySectionOfTheExample() {
        PipelineConfig config = parse(EXAMPLE, Map.of("KAFKA_BROKERS", "broker-1:9092"));

        assertThat(config.pipeline())
                .isEqualTo(PipelineSection.custom()
                        .name("orders-split")
                        .onError(ErrorPolicy.DEAD_LETTER)
                        .shutdownTimeout(Duration.ofSeconds(90))
                        .build());
        SourceSection source = config.source("orders");
        assertThat(source.connector()).isEqualTo("kafka");
        assertThat(source.onError()).isEqualTo(ErrorPolicy.SKIP);
        assertThat(source.connector(FakeSourceConfig.class).brokers()).isEqualTo("broker-1:9092");
        assertThat(source.connector(FakeSourceConfig.class).topics()).containsExactly("orders");

        SinkSection sink = config.sink("eu");
        FakeSinkConfig kafka = sink.connector(FakeSinkConfig.class);
        assertThat(kafka.topic()).isEqualTo("orders-eu");
        assertThat(kafka.maxMessageBytes()).isEqualTo(DataSize.ofBytes(1_000_000));
        assertThat(sink.pool().shards()).isEqualTo(4);
        assertThat(sink.pool().batch())
                .isEqualTo(BatchConfig.custom()
                        .maxRecords(500)
                        .maxBytes(DataSize.ofMebibytes(1))
                        .linger(Duration.ofMillis(5))
                        .build());
        assertThat(sink.pool().retry().maxBackoff()).isEqualTo(Duration.ofSeconds(10));
        assertThat(sink.pool().breaker()).isEqualTo(BreakerConfig.defaults());
        assertThat(sink.pool().onError()).isEqualTo(SinkPoolConfig.DEFAULT_ON_ERROR);

        assertThat(config.checkpoint())
                .isEqualTo(CheckpointConfig.custom()
                        .interval(Duration.ofSeconds(2))
                        .drainTimeout(Duration.ofMinutes(1))
                        .stalledFailAfter(Duration.ofSeconds(10))
                        .build());
        assertThat(config.metrics())
                .isEqualTo(MetricsConfig.custom()
                        .enabled(false)
                        .commonTags(Map.of("env", "prod"))
                        .build());
    }

    @Test
    void emptyFileYieldsDefaults() {
        assertThat(parse("")).isEqualTo(PipelineConfig.defaults());
        assertThat(parse("# nothing configured yet\n")).isEqualTo(PipelineConfig.defaults());
    }

    @Test
    void missingSectionsAndKeysTakeTheirDefaults() {
        PipelineConfig config = parse("""
                pipeline: {name: p}
                sinks:
                  eu:
                    kafka: {brokers: b, topic: t}
                checkpoint:
                """);

        assertThat(config.pipeline().onError()).isEqualTo(PipelineSection.DEFAULT_ON_ERROR);
        assertThat(config.checkpoint()).isEqualTo(CheckpointConfig.defaults());
        assertThat(config.metrics()).isEqualTo(MetricsConfig.defaults());
        assertThat(config.sink("eu").pool()).isEqualTo(SinkPoolConfig.defaults());
        assertThat(config.sink("eu").pool().retry()).isEqualTo(RetryConfig.defaults());
        assertThat(config.sources()).isEmpty();
    }

    @Test
    void shutdownTimeoutDefaultsToFortyFiveSeconds() {
        assertThat(parse("pipeline: {name: p}\n").pipeline().shutdownTimeout())
                .isEqualTo(PipelineSection.DEFAULT_SHUTDOWN_TIMEOUT)
                .isEqualTo(Duration.ofSeconds(45));
    }

    @Test
    void shutdownTimeoutIsBound() {
        assertThat(parse("pipeline: {shutdown_timeout: 2m}\ncheckpoint: {drain_timeout: 90s}\n")
                        .pipeline()
                        .shutdownTimeout())
                .isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void drainTimeoutThatDoesNotFitInsideTheShutdownTimeoutNamesBothKeys() {
        assertThat(problems("pipeline: {shutdown_timeout: 30s}\ncheckpoint: {drain_timeout: 30s}\n"))
                .singleElement()
                .asString()
                .startsWith("pipeline.shutdown_timeout: ")
                .contains("30s", "checkpoint.drain_timeout");
        assertThat(problems("checkpoint: {drain_timeout: 1m}\n"))
                .singleElement()
                .asString()
                .contains("pipeline.shutdown_timeout", "45s", "checkpoint.drain_timeout", "1m");
    }

    @Test
    void deliveryDefaultsToAtLeastOnceAndBindsExactlyOnceWithItsTransactionKeys() {
        assertThat(parse("pipeline: {name: p}\n").pipeline().delivery()).isEqualTo(DeliveryGuarantee.AT_LEAST_ONCE);
        var section = parse("pipeline: {delivery: exactly_once, transactional_id: p-1, transaction_timeout: 30s}\n")
                .pipeline();
        assertThat(section.delivery()).isEqualTo(DeliveryGuarantee.EXACTLY_ONCE);
        assertThat(section.configuredTransactionalId()).contains("p-1");
        assertThat(section.transactionTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(parse("pipeline: {delivery: exactly_once}\n").pipeline().transactionTimeout())
                .isEqualTo(PipelineSection.DEFAULT_TRANSACTION_TIMEOUT);
    }

    @Test
    void exactlyOnceCommitsATransactionEveryHundredMillisecondsUnlessTheIntervalIsSet() {
        assertThat(parse("pipeline: {delivery: exactly_once}\n").checkpoint().interval())
                .isEqualTo(CheckpointConfig.DEFAULT_EXACTLY_ONCE_INTERVAL);
        assertThat(parse("pipeline: {delivery: exactly_once}\ncheckpoint: {interval: 2s, drain_timeout: 5s}\n")
                        .checkpoint()
                        .interval())
                .isEqualTo(Duration.ofSeconds(2));
        assertThat(parse("pipeline: {name: p}\n").checkpoint().interval()).isEqualTo(CheckpointConfig.DEFAULT_INTERVAL);
    }

    @Test
    void unknownDeliveryIsRejectedWithItsKeyPath() {
        assertThat(problems("pipeline: {delivery: at_most_once}\n"))
                .singleElement()
                .asString()
                .startsWith("pipeline.delivery: ");
    }

    @Test
    void transactionTimeoutShorterThanTwoCheckpointIntervalsNamesBothKeys() {
        assertThat(problems(
                        "pipeline: {delivery: exactly_once, transaction_timeout: 1s}\ncheckpoint: {interval: 800ms}\n"))
                .singleElement()
                .asString()
                .startsWith("pipeline.transaction_timeout: ")
                .contains("1s", "checkpoint.interval", "800ms");
        // at least once, the transaction timeout is not used and not checked
        assertThat(parse("pipeline: {transaction_timeout: 1s}\ncheckpoint: {interval: 800ms}\n")
                        .pipeline()
                        .transactionTimeout())
                .isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void threadsDefaultsToOneAndBindsAsAWholeNumberOfLoops() {
        assertThat(parse("pipeline: {name: p}\n").pipeline().threads()).isEqualTo(PipelineSection.DEFAULT_THREADS);
        assertThat(parse("pipeline: {threads: 4}\n").pipeline().threads()).isEqualTo(4);
    }

    @Test
    void threadsBelowOneIsRejectedWithItsKeyPath() {
        assertThat(problems("pipeline: {threads: 0}\n"))
                .singleElement()
                .asString()
                .startsWith("pipeline.threads: ")
                .contains("greater than or equal to 1");
        assertThat(problems("pipeline: {threads: two}\n"))
                .singleElement()
                .asString()
                .startsWith("pipeline.threads: ");
    }

    @Test
    void severalThreadsWithExactlyOnceAreRejectedNamingBothKeys() {
        assertThat(problems("pipeline: {threads: 2, delivery: exactly_once}\n"))
                .singleElement()
                .asString()
                .startsWith("pipeline.threads: is 2 but pipeline.delivery is exactly_once")
                .contains("set pipeline.threads to 1");
        assertThat(parse("pipeline: {threads: 1, delivery: exactly_once}\n")
                        .pipeline()
                        .threads())
                .isEqualTo(1);
    }

    @Test
    void blankTransactionalIdIsRejected() {
        assertThat(problems("pipeline: {delivery: exactly_once, transactional_id: \" \"}\n"))
                .singleElement()
                .asString()
                .startsWith("pipeline.transactional_id: ");
    }

    @Test
    void badShutdownTimeoutIsReportedOnceWithoutTheBudgetCheck() {
        assertThat(problems("pipeline: {shutdown_timeout: soon}\n"))
                .singleElement()
                .asString()
                .startsWith("pipeline.shutdown_timeout: ")
                .contains("not a duration");
    }

    @Test
    void unknownKeyIsRejectedWithItsFullPathAndASuggestion() {
        assertThat(problems("""
                sinks:
                  eu:
                    kafka: {brokers: b, topic: t, max_mesage_bytes: 1MB}
                """))
                .containsExactly("sinks.eu.kafka.max_mesage_bytes: unknown key (did you mean max_message_bytes?)");
    }

    @Test
    void renamedKeyIsRejectedWithItsFullPathAndTheKeyThatReplacedIt() {
        assertThat(problems("""
                sinks:
                  eu:
                    kafka: {brokers: b, topic: t, timeout: 5s, request_timeout_ms: 5000}
                """))
                .containsExactlyInAnyOrder(
                        "sinks.eu.kafka.timeout: unknown key (renamed to request_timeout)",
                        "sinks.eu.kafka.request_timeout_ms: unknown key (renamed to request_timeout)");
    }

    @Test
    void unknownKeyInANestedCoreRecordIsRejectedWithItsFullPath() {
        assertThat(problems("""
                sinks:
                  eu:
                    kafka:
                      brokers: b
                      topic: t
                      batch: {max_record: 5}
                checkpoint: {intervall: 1s}
                """))
                .containsExactly(
                        "sinks.eu.kafka.batch.max_record: unknown key (did you mean max_records?)",
                        "checkpoint.intervall: unknown key (did you mean interval?)");
    }

    @Test
    void unknownTopLevelSectionIsRejected() {
        assertThat(problems("sink: {}\nfoo: 1\n"))
                .containsExactly(
                        "sink: unknown key (did you mean sinks?)",
                        "foo: unknown key (expected one of: checkpoint, dead_letter, metrics, pipeline, retry, sinks, source)");
    }

    @Test
    void everyProblemOfTheFileIsListedInOneException() {
        ConfigException e =
                org.assertj.core.api.Assertions.catchThrowableOfType(ConfigException.class, () -> parse("""
                pipeline:
                  name: p
                  on_eror: fail
                sinks:
                  eu:
                    kafka:
                      brokers: ${BROKERS}
                      topic: t
                      max_message_bytes: 12 parsecs
                      batch: {max_records: 0}
                checkpoint:
                  interval: 5 minutes
                """));

        assertThat(e.problems())
                .extracting(Object::toString)
                .containsExactlyInAnyOrder(
                        "pipeline.on_eror: unknown key (did you mean on_error?)",
                        "sinks.eu.kafka.brokers: environment variable BROKERS is not set",
                        "sinks.eu.kafka.max_message_bytes: '12 parsecs' " + DataSizeDeserializer.NOT_A_SIZE,
                        "sinks.eu.kafka.batch.max_records: must be greater than or equal to 1",
                        "checkpoint.interval: '5 minutes' is not a duration; use 250ms, 30s, 5m, 1h or ISO-8601");
        assertThat(e.getMessage()).startsWith("invalid configuration (5 problems):");
    }

    @Test
    void oneBrokenSectionDoesNotHideAnothersProblems() {
        assertThat(problems("""
                pipeline: [not, a, mapping]
                checkpoint: {interval: 99999999999999999999d}
                metrics: {enabled: maybe}
                """))
                .containsExactly(
                        "pipeline: expected a mapping",
                        "checkpoint.interval: '99999999999999999999d' is not a duration; use 250ms, 30s, 5m, 1h or ISO-8601",
                        "metrics.enabled: expected true or false");
    }

    @Test
    void enumsAreCaseInsensitive() {
        assertThat(parse("pipeline: {on_error: Dead_Letter}").pipeline().onError())
                .isEqualTo(ErrorPolicy.DEAD_LETTER);
        assertThat(parse("pipeline: {on_error: SKIP}").pipeline().onError()).isEqualTo(ErrorPolicy.SKIP);
        assertThat(parse("pipeline: {on_error: fail}").pipeline().onError()).isEqualTo(ErrorPolicy.FAIL);
    }

    @Test
    void badEnumValueNamesTheAcceptedValues() {
        assertThat(problems("pipeline: {on_error: explode}"))
                .containsExactly("pipeline.on_error: 'explode' is not one of skip, fail, dead_letter, retry");
        assertThat(problems("pipeline: {on_error: 1}"))
                .containsExactly("pipeline.on_error: '1' is not one of skip, fail, dead_letter, retry");
    }

    @Test
    void badNumbersAreProblemsWithoutEchoingTheValue() {
        assertThat(problems("""
                sinks:
                  eu:
                    kafka:
                      brokers: b
                      topic: t
                      shards: many
                      inflight: 2.5
                      retry: {multiplier: fast}
                """))
                .containsExactly(
                        "sinks.eu.kafka.shards: expected a whole number",
                        "sinks.eu.kafka.inflight: expected a whole number",
                        "sinks.eu.kafka.retry.multiplier: expected a number");
    }

    @Test
    void listIndexesAppearInPaths() {
        assertThat(problems("""
                source:
                  orders:
                    kafka:
                      brokers: b
                      topics: [a, b, ""]
                      backoffs: [1s, 2x]
                """))
                .containsExactly(
                        "source.orders.kafka.backoffs[1]: '2x' is not a duration; use 250ms, 30s, 5m, 1h or ISO-8601",
                        "source.orders.kafka.topics[2]: must not be blank");
    }

    @Test
    void wrongShapeIsAProblemWithItsPath() {
        assertThat(problems("""
                source:
                  orders:
                    kafka: {brokers: b, topics: orders}
                metrics: {common_tags: [a]}
                """))
                .containsExactly(
                        "source.orders.kafka.topics: expected a list", "metrics.common_tags: expected a mapping");
    }

    @Test
    void missingFileIsAProblemNamingTheFile(@TempDir Path dir) {
        Path missing = dir.resolve("nope.yaml");

        assertThatThrownBy(() -> ConfigLoader.load(missing, name -> null, Configs.KAFKA))
                .isInstanceOfSatisfying(
                        ConfigException.class,
                        e -> assertThat(e.problems())
                                .singleElement()
                                .hasToString(missing + ": configuration file not found"));
    }

    @Test
    void loadsAFile(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("p.yaml"), "pipeline: {name: from-file}\n");

        assertThat(ConfigLoader.load(file, name -> null, Configs.KAFKA)
                        .pipeline()
                        .name())
                .isEqualTo("from-file");
    }

    @Test
    void malformedYamlNamesLineAndColumn(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("bad.yaml"), """
                pipeline:
                  name: p
                 on_error: [fail
                """);

        assertThatThrownBy(() -> ConfigLoader.load(file, name -> null, Configs.KAFKA))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(file.toString())
                .hasMessageMatching("(?s).*malformed YAML at line 3, column \\d+.*");
    }

    @Test
    void aSecondDocumentIsAProblemNamingItsLineNotIgnored() {
        assertThatThrownBy(() -> parse("pipeline: {name: first}\n---\ncheckpoint: {interval: 1s}\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("a second YAML document starts at line 3");
        assertThat(parse("---\npipeline: {name: marked}\n---\n").pipeline().name())
                .as("a document marker before the only document, and an empty one after it")
                .isEqualTo("marked");
    }

    @Test
    void anchorsAliasesAndMergeKeysAreResolved() {
        assertThat(YamlTrees.read("""
                        base: &base {a: 1, b: 2}
                        more: &more {b: 20, c: 30}
                        one: {<<: *base, a: 10}
                        both: {<<: [*base, *more], d: 4}
                        list: [*base, x]
                        scalar: &s text
                        again: *s
                        number: &n 5
                        numbers: [*n, '*n']
                        quoted: &q "5"
                        text: *q
                        """, "").toString())
                .contains(
                        "\"one\":{\"a\":10,\"b\":2}",
                        "\"both\":{\"d\":4,\"a\":1,\"b\":2,\"c\":30}",
                        "\"list\":[{\"a\":1,\"b\":2},\"x\"]",
                        "\"again\":\"text\"",
                        "\"numbers\":[5,\"*n\"]",
                        "\"text\":\"5\"");
    }

    @Test
    void topLevelExtensionKeysHoldSharedBlocksAndAreNotRead() {
        PipelineConfig config = parse("""
                x-checkpoint: &checkpoint {interval: 2s, drain_timeout: 5s}
                checkpoint:
                  <<: *checkpoint
                  interval: 3s
                """);

        assertThat(config.checkpoint().interval()).isEqualTo(Duration.ofSeconds(3));
        assertThat(config.checkpoint().drainTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThatThrownBy(() -> parse("defaults: {interval: 2s}\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("defaults: unknown key");
    }

    @Test
    void anAliasWithoutAnAnchorOrAMergeOfAScalarIsAProblem() {
        assertThatThrownBy(() -> YamlTrees.read("a: 1\nb: *nowhere\n", "p.yaml"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("p.yaml: YAML alias *nowhere at line 2 has no anchor &nowhere before it");
        assertThatThrownBy(() -> YamlTrees.read("early: *late\nlate: &late x\n", "p.yaml"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("YAML alias *late at line 1 has no anchor &late before it");
        assertThatThrownBy(() -> YamlTrees.read("a: &a 1\nb: {<<: *a}\n", "p.yaml"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("merge key << at line 2 takes a mapping");
    }

    @Test
    void aliasesThatMultiplyBeyondAnyRealFileAreRefused() {
        StringBuilder yaml = new StringBuilder("l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n");
        for (int i = 1; i < 9; i++) {
            yaml.append("l").append(i).append(": &l").append(i).append(" [");
            yaml.append(String.join(", ", Collections.nCopies(10, "*l" + (i - 1))));
            yaml.append("]\n");
        }
        assertThatThrownBy(() -> YamlTrees.read(yaml.toString(), ""))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("aliases expand to more than");
    }

    @Test
    void duplicateKeyIsMalformedYaml() {
        assertThatThrownBy(() -> parse("checkpoint: {interval: 1s}\ncheckpoint: {interval: 2s}\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("malformed YAML at line 2");
    }

    @Test
    void malformedYamlDoesNotEchoTheOffendingLine() {
        assertThatThrownBy(() -> parse("""
                sinks:
                  eu:
                    kafka:
                      sasl_password: hunter2: oops
                """))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("malformed YAML at line 4")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void aScalarDocumentIsAProblem() {
        assertThat(problems("just text"))
                .containsExactly(
                        "expected a mapping with the sections pipeline, source, sinks, dead_letter, retry, checkpoint, metrics");
    }

    @Test
    void problemsKeepFileOrderAcrossSections() {
        List<String> found = problems("""
                metrics: {enabld: true}
                pipeline: {nme: x}
                """);

        assertThat(found)
                .containsExactly(
                        "metrics.enabld: unknown key (did you mean enabled?)",
                        "pipeline.nme: unknown key (did you mean name?)");
    }
}
