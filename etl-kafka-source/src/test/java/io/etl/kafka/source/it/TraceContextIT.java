package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.record.TraceContext;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.opentelemetry.api.GlobalOpenTelemetry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** With the OpenTelemetry API but no SDK: the output topics carry each input's trace headers unchanged. */
@EmbeddedKafka(shared = true)
class TraceContextIT {

    @BeforeAll
    static void noSdkRegistered() {
        GlobalOpenTelemetry.resetForTest();
    }

    @Test
    @Timeout(120)
    void everyOutputCarriesItsInputsTraceparentAndTracestateWhateverEncoderBuiltIt(KafkaTestCluster kafka) {
        TracedRun run = TracedRun.run(kafka, "propagate");

        for (TestRecord in : run.inputs.values()) {
            String value = in.valueAsString();
            for (String sink : new String[] {"bytes", "fresh"}) {
                TestRecord out = run.outputs.get(sink).get(value);
                assertThat(out.headerAsString(TraceContext.TRACEPARENT))
                        .as("traceparent of %s on %s", value, sink)
                        .isEqualTo(in.headerAsString(TraceContext.TRACEPARENT));
                assertThat(out.headerAsString(TraceContext.TRACESTATE))
                        .as("tracestate of %s on %s", value, sink)
                        .isEqualTo(in.headerAsString(TraceContext.TRACESTATE));
            }
            TestRecord own = run.outputs.get("own").get(value);
            assertThat(own.headerAsString(TraceContext.TRACEPARENT))
                    .as("an encoder's own traceparent wins")
                    .isEqualTo(TracedRun.OWN);
            assertThat(run.outputs.get("fresh").get(value).headers())
                    .as("only the trace headers were added to %s", value)
                    .doesNotContainKey("region");
        }
        assertThat(run.outputs.get("bytes").values())
                .filteredOn(r -> r.headerAsString(TraceContext.TRACEPARENT) == null)
                .hasSize(TracedRun.RECORDS / 2);
    }
}
