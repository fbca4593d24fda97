package io.etl.kafka.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.etl.core.config.DataSize;
import io.etl.core.config.TracingConfig;
import io.etl.core.error.RecordException;
import io.etl.core.internal.trace.RecordTracing;
import io.etl.core.record.Header;
import io.etl.core.record.RecordMeta;
import io.etl.core.record.TraceContext;
import io.etl.core.sink.Encoder;
import io.etl.kafka.sink.Change;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.sink.KafkaSinkConfig;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every Kafka encoder puts the output's trace context on the message; an encoder's own traceparent wins. */
class TraceHeadersTest {

    static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    static final String CHILD = "00-4bf92f3577b34da6a3ce929d0e0e4736-b7ad6b7169203331-01";
    static final String OWN = "00-0af7651916cd43dd8448eb211c80319c-b9c7c989f97918e1-01";

    private static final RecordMeta META = new RecordMeta(
            "orders",
            0,
            7L,
            -1L,
            "k".getBytes(StandardCharsets.UTF_8),
            List.of(
                    Header.of("region", "eu"),
                    Header.of(TraceContext.TRACEPARENT, PARENT),
                    Header.of(TraceContext.TRACESTATE, "vendor=a")));
    private static final TraceContext INPUT = TraceContext.find(META.headers());

    private static KafkaSinkConfig config(long maxBytes) {
        return KafkaSinkConfig.custom()
                .brokers("b:9092")
                .topic("out")
                .build()
                .withMaxMessageBytes(DataSize.ofBytes(maxBytes));
    }

    private static String header(KafkaMessage m, String key) {
        return m.headers().stream()
                .filter(h -> h.key().equals(key))
                .map(Header::valueAsString)
                .reduce((a, b) -> b)
                .orElse(null);
    }

    @Test
    void aCustomEncoderThatSetsNoHeadersStillCarriesTheInputsTraceContext() {
        Encoder<String, KafkaMessage> e = KafkaSink.from("s", config(1000), null)
                .<String>with((v, meta) -> KafkaMessage.builder()
                        .key(v)
                        .header("own", "1")
                        .value(v)
                        .build())
                .encoder();

        KafkaMessage m = e.encode("x", META, 0, INPUT);

        assertThat(m.headers())
                .extracting(Header::key)
                .containsExactly("own", TraceContext.TRACEPARENT, TraceContext.TRACESTATE);
        assertThat(header(m, TraceContext.TRACEPARENT)).isEqualTo(PARENT);
        assertThat(header(m, TraceContext.TRACESTATE)).isEqualTo("vendor=a");
    }

    @Test
    void aCustomEncodersOwnTraceparentIsKept() {
        Encoder<String, KafkaMessage> e = KafkaSink.from("s", config(1000), null)
                .<String>with((v, meta) -> KafkaMessage.builder()
                        .header(TraceContext.TRACEPARENT, OWN)
                        .value(v)
                        .build())
                .encoder();

        KafkaMessage m = e.encode("x", META, 0, TraceContext.of(CHILD, null, INPUT));

        assertThat(m.headers()).containsExactly(Header.of(TraceContext.TRACEPARENT, OWN));
    }

    @Test
    void bytesEncoderOutputIsTheSameMessageWhenPropagatingAndCarriesTheProducerSpanWhenTracing() {
        Encoder<byte[], KafkaMessage> e =
                KafkaSink.from("s", config(1000), null).bytes().encoder();

        KafkaMessage propagated = e.encode(new byte[1], META, 0, INPUT);
        KafkaMessage traced = e.encode(new byte[1], META, 0, TraceContext.of(CHILD, "vendor=b", INPUT));

        assertThat(propagated).isEqualTo(e.encode(new byte[1], META, 0));
        assertThat(propagated.headers()).isEqualTo(META.headers());
        assertThat(traced.headers())
                .containsExactly(
                        Header.of("region", "eu"),
                        Header.of(TraceContext.TRACEPARENT, CHILD),
                        Header.of(TraceContext.TRACESTATE, "vendor=b"));
    }

    @Test
    void envelopeAndJsonEncodersCarryTheOutputsContext() {
        Encoder<Change<String>, KafkaMessage> envelope =
                KafkaSink.from("s", config(1000), null).<String>envelope().encoder();
        Encoder<Object, KafkaMessage> json =
                KafkaSink.from("s", config(1000), null).json().encoder();
        TraceContext output = TraceContext.of(CHILD, null, INPUT);

        KafkaMessage env = envelope.encode(Change.upsert("id-1", "doc"), META, 0, output);
        KafkaMessage js = json.encode("v", META, 0, output);

        assertThat(header(env, TraceContext.TRACEPARENT)).isEqualTo(CHILD);
        assertThat(header(env, TraceContext.TRACESTATE)).isNull();
        assertThat(header(env, KafkaSink.OPERATION_HEADER)).isEqualTo("upsert");
        assertThat(header(js, TraceContext.TRACEPARENT)).isEqualTo(CHILD);
    }

    @Test
    void withoutOpenTelemetryOnTheClassPathPipelinesPropagateOnly() {
        assertThatThrownBy(() -> Class.forName("io.opentelemetry.api.GlobalOpenTelemetry"))
                .as("this module's tests run without the optional API")
                .isInstanceOf(ClassNotFoundException.class);

        assertThat(RecordTracing.create(TracingConfig.defaults(), "p", "s")).isSameAs(RecordTracing.PROPAGATE);
    }

    @Test
    void theSizeGuardCountsTheTraceHeaders() {
        Encoder<String, KafkaMessage> e = KafkaSink.from("s", config(60), null)
                .<String>with((v, meta) -> KafkaMessage.builder().value(v).build())
                .encoder();

        assertThat(e.encode("x", META, 0).sizeInBytes()).isEqualTo(1);
        RecordException error = catchThrowableOfType(RecordException.class, () -> e.encode("x", META, 0, INPUT));

        assertThat(error.reason()).isEqualTo(RecordException.OVERSIZED);
    }
}
