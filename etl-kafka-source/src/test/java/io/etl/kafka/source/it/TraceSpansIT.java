package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.record.TraceContext;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With an OpenTelemetry SDK registered: each output's traceparent names its producer span, child of the
 * record's consumer span, under the input's trace id; inputs without traceparent start new traces.
 */
@EmbeddedKafka(shared = true)
class TraceSpansIT {

    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    @Test
    @Timeout(120)
    void outputsCarryTheirProducerSpanUnderTheInputsTraceId(KafkaTestCluster kafka) {
        TracedRun run = TracedRun.run(kafka, "spans");

        List<SpanData> spans = OTEL.getSpans();
        Map<String, SpanData> byId = spans.stream().collect(Collectors.toMap(SpanData::getSpanId, Function.identity()));
        assertThat(spans).filteredOn(s -> s.getKind() == SpanKind.CONSUMER).hasSize(TracedRun.RECORDS);
        assertThat(spans)
                .filteredOn(s -> s.getKind() == SpanKind.PRODUCER)
                .hasSize(TracedRun.RECORDS * TracedRun.SINKS.size());
        for (TestRecord in : run.inputs.values()) {
            String value = in.valueAsString();
            String inputParent = in.headerAsString(TraceContext.TRACEPARENT);
            for (String sink : new String[] {"bytes", "fresh"}) {
                String[] out = run.outputs
                        .get(sink)
                        .get(value)
                        .headerAsString(TraceContext.TRACEPARENT)
                        .split("-");
                SpanData producer = byId.get(out[2]);
                assertThat(producer)
                        .as("the producer span named by %s's output on %s", value, sink)
                        .isNotNull();
                assertThat(producer.getKind()).isEqualTo(SpanKind.PRODUCER);
                assertThat(producer.getName()).isEqualTo("send " + sink);
                SpanData consumer = byId.get(producer.getParentSpanId());
                assertThat(consumer.getKind()).as("parent of the producer span").isEqualTo(SpanKind.CONSUMER);
                assertThat(producer.getTraceId()).isEqualTo(out[1]).isEqualTo(consumer.getTraceId());
                if (inputParent != null) {
                    String[] parent = inputParent.split("-");
                    assertThat(out[1]).as("trace id of %s on %s", value, sink).isEqualTo(parent[1]);
                    assertThat(consumer.getParentSpanId()).isEqualTo(parent[2]);
                    assertThat(out[2]).isNotEqualTo(parent[2]);
                } else {
                    assertThat(consumer.getParentSpanContext().isValid())
                            .as("%s started a new trace", value)
                            .isFalse();
                }
                assertThat(run.outputs.get(sink).get(value).headerAsString(TraceContext.TRACESTATE))
                        .isEqualTo(in.headerAsString(TraceContext.TRACESTATE));
            }
            assertThat(run.outputs.get("own").get(value).headerAsString(TraceContext.TRACEPARENT))
                    .isEqualTo(TracedRun.OWN);
        }
    }
}
