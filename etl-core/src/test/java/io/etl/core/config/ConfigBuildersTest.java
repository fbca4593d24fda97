package io.etl.core.config;

import static io.etl.core.config.ConfigRejection.rejected;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.error.ConfigException;
import io.etl.core.error.ErrorPolicy;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The builders of the configuration records: defaults, copies, a range check at every setter, and a check of the
 * whole by every constructor, so that no path builds a record YAML validation would reject.
 */
class ConfigBuildersTest {

    @Test
    void customStartsFromTheDefaults() {
        assertThat(SinkPoolConfig.custom().build()).isEqualTo(SinkPoolConfig.defaults());
        assertThat(BatchConfig.custom().build()).isEqualTo(BatchConfig.defaults());
        assertThat(RetryConfig.custom().build()).isEqualTo(RetryConfig.defaults());
        assertThat(BreakerConfig.custom().build()).isEqualTo(BreakerConfig.defaults());
        assertThat(CheckpointConfig.custom().build()).isEqualTo(CheckpointConfig.defaults());
        assertThat(PipelineSection.custom().build()).isEqualTo(PipelineSection.defaults());
        assertThat(TracingConfig.custom().build()).isEqualTo(TracingConfig.defaults());
        assertThat(MetricsConfig.custom().build()).isEqualTo(MetricsConfig.defaults());
        assertThat(PipelineConfig.custom().build()).isEqualTo(PipelineConfig.defaults());
    }

    @Test
    void fromKeepsEverythingNotSetAgain() {
        SinkPoolConfig base = SinkPoolConfig.custom()
                .shards(8)
                .inflight(2)
                .onError(ErrorPolicy.FAIL)
                .build();

        SinkPoolConfig copy = SinkPoolConfig.from(base).queue(16).build();

        assertThat(copy.shards()).isEqualTo(8);
        assertThat(copy.inflight()).isEqualTo(2);
        assertThat(copy.onError()).isEqualTo(ErrorPolicy.FAIL);
        assertThat(copy.queue()).isEqualTo(16);
        assertThat(base.queue()).isEqualTo(SinkPoolConfig.DEFAULT_QUEUE);
    }

    @Test
    void everySetterIsBuilt() {
        BatchConfig batch = BatchConfig.custom()
                .maxRecords(10)
                .maxBytes(DataSize.ofBytes(100))
                .linger(Duration.ZERO)
                .build();
        RetryConfig retry = RetryConfig.custom()
                .initialBackoff(Duration.ofMillis(1))
                .maxBackoff(Duration.ofMillis(2))
                .multiplier(1.5)
                .jitter(0)
                .maxAttempts(3)
                .build();
        BreakerConfig breaker = BreakerConfig.custom()
                .enabled(false)
                .failureRateThreshold(75f)
                .slidingWindow(4)
                .minimumCalls(2)
                .openWait(Duration.ofSeconds(1))
                .build();
        CheckpointConfig checkpoint = CheckpointConfig.custom()
                .interval(Duration.ofMillis(1))
                .drainTimeout(Duration.ofSeconds(2))
                .stalledFailAfter(Duration.ofSeconds(3))
                .maxPendingRecords(4)
                .build();

        assertThat(batch).isEqualTo(new BatchConfig(10, DataSize.ofBytes(100), Duration.ZERO));
        assertThat(retry).isEqualTo(new RetryConfig(Duration.ofMillis(1), Duration.ofMillis(2), 1.5, 0.0, 3));
        assertThat(breaker).isEqualTo(new BreakerConfig(false, 75f, 4, 2, Duration.ofSeconds(1)));
        assertThat(checkpoint)
                .isEqualTo(new CheckpointConfig(Duration.ofMillis(1), Duration.ofSeconds(2), Duration.ofSeconds(3), 4));
        assertThat(SinkPoolConfig.custom()
                        .batch(batch)
                        .retry(retry)
                        .breaker(breaker)
                        .build())
                .extracting(SinkPoolConfig::batch, SinkPoolConfig::retry, SinkPoolConfig::breaker)
                .containsExactly(batch, retry, breaker);
    }

    @Test
    void everySetterOfThePipelineSectionsIsBuilt() {
        TracingConfig tracing =
                TracingConfig.custom().propagate(false).spans(false).build();
        PipelineSection pipeline = PipelineSection.custom()
                .name("p")
                .onError(ErrorPolicy.SKIP)
                .operatorAttempts(5)
                .operatorBackoff(Duration.ofMillis(7))
                .shutdownTimeout(Duration.ofMinutes(2))
                .tracing(tracing)
                .delivery(DeliveryGuarantee.EXACTLY_ONCE)
                .transactionalId("p-1")
                .transactionTimeout(Duration.ofSeconds(20))
                .refusedMessageAttempts(2)
                .build();
        MetricsConfig metrics = MetricsConfig.custom()
                .enabled(false)
                .commonTags(Map.of("env", "prod"))
                .build();
        CheckpointConfig checkpoint =
                CheckpointConfig.custom().drainTimeout(Duration.ofMinutes(1)).build();

        assertThat(tracing).isEqualTo(new TracingConfig(false, false));
        assertThat(pipeline)
                .isEqualTo(new PipelineSection(
                        "p",
                        ErrorPolicy.SKIP,
                        5,
                        Duration.ofMillis(7),
                        Duration.ofMinutes(2),
                        tracing,
                        DeliveryGuarantee.EXACTLY_ONCE,
                        "p-1",
                        Duration.ofSeconds(20),
                        null,
                        2,
                        1));
        assertThat(metrics).isEqualTo(new MetricsConfig(false, Map.of("env", "prod")));
        assertThat(PipelineConfig.custom()
                        .pipeline(pipeline)
                        .checkpoint(checkpoint)
                        .metrics(metrics)
                        .build())
                .extracting(PipelineConfig::pipeline, PipelineConfig::checkpoint, PipelineConfig::metrics)
                .containsExactly(pipeline, checkpoint, metrics);
    }

    static Stream<ConfigRejection> settingsOutOfRange() {
        return Stream.of(
                rejected(() -> SinkPoolConfig.custom().shards(0), "shards: must be between 1 and 256"),
                rejected(() -> SinkPoolConfig.custom().inflight(1025), "inflight: must be between 1 and 1024"),
                rejected(() -> SinkPoolConfig.custom().queue(0), "queue: must be between 1 and 1024"),
                rejected(() -> BatchConfig.custom().maxRecords(0), "max_records: must be greater than or equal to 1"),
                rejected(
                        () -> RetryConfig.custom().multiplier(0.5), "multiplier: must be greater than or equal to 1.0"),
                rejected(() -> RetryConfig.custom().jitter(1.5), "jitter: must be less than or equal to 1.0"),
                rejected(
                        () -> RetryConfig.custom().maxAttempts(-1), "max_attempts: must be greater than or equal to 0"),
                rejected(
                        () -> BreakerConfig.custom().failureRateThreshold(101f),
                        "failure_rate_threshold: must be less than or equal to 100.0"),
                rejected(
                        () -> BreakerConfig.custom().slidingWindow(0),
                        "sliding_window: must be greater than or equal to 1"),
                rejected(
                        () -> CheckpointConfig.custom().maxPendingRecords(0),
                        "max_pending_records: must be greater than or equal to 1"),
                rejected(
                        () -> PipelineSection.custom().operatorAttempts(0),
                        "operator_attempts: must be greater than or equal to 1"),
                rejected(
                        () -> PipelineSection.custom().transactionalId(" "),
                        "transactional_id: must not be blank when set"),
                rejected(
                        () -> PipelineSection.custom().refusedMessageAttempts(0),
                        "refused_message_attempts: must be between 1 and 100"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("settingsOutOfRange")
    void setterRejectsValueOutOfRangeWithTheYamlMessage(ConfigRejection rejection) {
        rejection.assertRejected();
    }

    @Test
    void rejectsNegativeLinger() {
        assertThatThrownBy(() -> BatchConfig.custom().linger(Duration.ofMillis(-1)))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("invalid configuration: linger: ")
                .hasMessageContaining("is negative");
    }

    @Test
    void rejectsNullSettingNamingTheKey() {
        assertThatThrownBy(() -> SinkPoolConfig.custom().onError(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("on_error must not be null");
        assertThatThrownBy(() -> CheckpointConfig.custom().drainTimeout(null))
                .hasMessage("drain_timeout must not be null");
    }

    @Test
    void constructorChecksTheWholeRecordListingEveryProblem() {
        assertThatThrownBy(() -> new SinkPoolConfig(0, 0, null, null, null, null, null))
                .isInstanceOfSatisfying(
                        ConfigException.class,
                        e -> assertThat(e.problems())
                                .extracting(Object::toString)
                                .containsExactly(
                                        "inflight: must be between 1 and 1024", "shards: must be between 1 and 256"));
        assertThatThrownBy(() -> new RetryConfig(Duration.ofMillis(-1), null, 0.5, 1.5, -1))
                .isInstanceOfSatisfying(
                        ConfigException.class,
                        e -> assertThat(e.problems())
                                .extracting(Object::toString)
                                .containsExactly(
                                        "initial_backoff: 'PT-0.001S' is negative; a duration must be zero or more",
                                        "jitter: must be less than or equal to 1.0",
                                        "max_attempts: must be greater than or equal to 0",
                                        "multiplier: must be greater than or equal to 1.0"));
    }

    @Test
    void threadsAreSetInCodeAndCheckedAsInYaml() {
        assertThat(PipelineSection.custom().threads(3).build().threads()).isEqualTo(3);
        assertThat(PipelineSection.defaults().threads()).isEqualTo(PipelineSection.DEFAULT_THREADS);
        assertThatThrownBy(() -> PipelineSection.custom().threads(0))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("threads: must be greater than or equal to 1");
        PipelineSection exactlyOnceOnTwoLoops = PipelineSection.custom()
                .delivery(DeliveryGuarantee.EXACTLY_ONCE)
                .threads(2)
                .build();
        assertThatThrownBy(() ->
                        PipelineConfig.custom().pipeline(exactlyOnceOnTwoLoops).build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("pipeline.threads: is 2 but pipeline.delivery is exactly_once");
    }

    static Stream<ConfigRejection> pathsAroundTheBuilder() {
        return Stream.of(
                rejected(() -> new BatchConfig(0, null, null), "max_records: must be greater than or equal to 1"),
                rejected(
                        () -> new CheckpointConfig(null, Duration.ofSeconds(-1), null, null),
                        "drain_timeout: 'PT-1S' is negative; a duration must be zero or more"),
                rejected(
                        () -> new PipelineSection(null, null, 0, null, null, null, null, null, null, null, null, null),
                        "operator_attempts: must be greater than or equal to 1"),
                rejected(() -> SinkPoolConfig.defaults().withShards(0), "shards: must be between 1 and 256"),
                rejected(() -> SinkPoolConfig.defaults().withQueue(5000), "queue: must be between 1 and 1024"),
                rejected(
                        () -> CheckpointConfig.defaults().withMaxPendingRecords(0),
                        "max_pending_records: must be greater than or equal to 1"),
                rejected(
                        () -> SinkPoolConfig.from(SinkPoolConfig.defaults()).inflight(0),
                        "inflight: must be between 1 and 1024"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pathsAroundTheBuilder")
    void constructorsAndCopiesRejectWhatTheBuilderRejects(ConfigRejection rejection) {
        rejection.assertRejected();
    }

    @Test
    void pipelineConfigChecksTheRulesThatTieItsSectionsTogether() {
        CheckpointConfig longDrain =
                CheckpointConfig.custom().drainTimeout(Duration.ofMinutes(1)).build();

        assertThatThrownBy(() -> PipelineConfig.custom().checkpoint(longDrain).build())
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("invalid configuration: pipeline.shutdown_timeout: is 45s but must be greater"
                        + " than checkpoint.drain_timeout (1m)");
        assertThatThrownBy(() -> PipelineConfig.defaults().withCheckpoint(longDrain))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("pipeline.shutdown_timeout");
        assertThat(PipelineConfig.custom()
                        .pipeline(PipelineSection.custom()
                                .shutdownTimeout(Duration.ofMinutes(2))
                                .build())
                        .checkpoint(longDrain)
                        .build()
                        .checkpoint())
                .isEqualTo(longDrain);

        PipelineSection exactlyOnce = PipelineSection.custom()
                .delivery(DeliveryGuarantee.EXACTLY_ONCE)
                .transactionTimeout(Duration.ofSeconds(1))
                .build();
        CheckpointConfig slowCheckpoints =
                CheckpointConfig.custom().interval(Duration.ofMillis(800)).build();
        assertThatThrownBy(() -> PipelineConfig.custom()
                        .pipeline(exactlyOnce)
                        .checkpoint(slowCheckpoints)
                        .build())
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("invalid configuration: pipeline.transaction_timeout: is 1s but must be at"
                        + " least twice checkpoint.interval (800ms)");
    }
}
