package io.etl.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.core.PipelineResult;
import io.etl.core.PipelineState;
import io.etl.core.PipelineStateListener;
import io.etl.core.RunningPipeline;
import io.etl.core.source.SourcePartition;
import io.etl.runtime.internal.HealthReport;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** A source waiting for something outside (a schema registry) makes the pipeline not ready, and says why. */
class HealthReportWaitingTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A running pipeline whose source waits for {@code reason} (or not, when null). */
    private record Waiting(String reason) implements RunningPipeline {
        @Override
        public Optional<String> waitingFor() {
            return Optional.ofNullable(reason);
        }

        @Override
        public String name() {
            return "waiting";
        }

        @Override
        public CompletableFuture<PipelineResult> result() {
            return new CompletableFuture<>();
        }

        @Override
        public PipelineState state() {
            return PipelineState.RUNNING;
        }

        @Override
        public void addStateListener(PipelineStateListener listener) {}

        @Override
        public void stop() {}

        @Override
        public Map<SourcePartition, Long> committedOffsets() {
            return Map.of();
        }

        @Override
        public Set<SourcePartition> assignedPartitions() {
            return Set.of(new SourcePartition("payments", 0));
        }

        @Override
        public Optional<Instant> lastCommitTime() {
            return Optional.empty();
        }

        @Override
        public Instant lastActivity() {
            return Instant.now();
        }

        @Override
        public MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Override
        public PipelineResult stopAndWait(Duration timeout) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {}
    }

    @Test
    void notReadyButLiveWhileTheSourceWaitsAndTheBodySaysWhy() throws Exception {
        HealthReport health = new HealthReport(
                () -> new Waiting("source 'payments' waits to decode payments-0@7: registry did not answer"),
                Duration.ofSeconds(60));

        HealthReport.Answer ready = health.ready();
        JsonNode body = JSON.readTree(ready.body());

        assertThat(ready.status()).isEqualTo(503);
        assertThat(body.get("state").asText()).isEqualTo("RUNNING");
        assertThat(body.get("waiting_for").asText()).contains("payments-0@7", "registry did not answer");
        assertThat(health.live().status()).isEqualTo(200);
    }

    @Test
    void readyWithANullWaitingForOnceItResumed() throws Exception {
        HealthReport health = new HealthReport(() -> new Waiting(null), Duration.ofSeconds(60));

        assertThat(health.ready().status()).isEqualTo(200);
        assertThat(JSON.readTree(health.ready().body()).get("waiting_for").isNull())
                .isTrue();
    }
}
