package io.etl.core.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TraceContextTest {

    static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    static final String CHILD = "00-4bf92f3577b34da6a3ce929d0e0e4736-b7ad6b7169203331-01";
    static final String OTHER = "00-0af7651916cd43dd8448eb211c80319c-b9c7c989f97918e1-01";

    private static final List<Header> INPUT =
            List.of(Header.of("region", "eu"), traceparent(PARENT), tracestate("vendor=a"));

    private static Header traceparent(String value) {
        return Header.of(TraceContext.TRACEPARENT, value);
    }

    private static Header tracestate(String value) {
        return Header.of(TraceContext.TRACESTATE, value);
    }

    @Test
    void findsTheInputsTraceparentAndTracestate() {
        TraceContext found = TraceContext.find(INPUT);

        assertThat(found.traceparent().valueAsString()).isEqualTo(PARENT);
        assertThat(found.tracestate().valueAsString()).isEqualTo("vendor=a");
        assertThat(found.inputTraceparent()).isSameAs(found.traceparent());
    }

    @Test
    void findsNothingWithoutATraceparent() {
        assertThat(TraceContext.find(List.of(Header.of("region", "eu"), tracestate("x=1"))))
                .isNull();
        assertThat(TraceContext.find(List.of())).isNull();
    }

    @Test
    void takesTheLastOfRepeatedTraceparentHeaders() {
        TraceContext found = TraceContext.find(List.of(traceparent(OTHER), traceparent(PARENT)));

        assertThat(found.traceparent().valueAsString()).isEqualTo(PARENT);
        assertThat(found.tracestate()).isNull();
    }

    @Test
    void leavesACopyOfTheInputsHeadersAsTheyAreWhenPropagating() {
        TraceContext input = TraceContext.find(INPUT);

        assertThat(input.applyTo(INPUT)).isSameAs(INPUT);
    }

    @Test
    void addsTheTraceHeadersToAMessageThatHasNone() {
        TraceContext input = TraceContext.find(INPUT);

        List<Header> out = input.applyTo(List.of(Header.of("own", "1")));

        assertThat(out).containsExactly(Header.of("own", "1"), traceparent(PARENT), tracestate("vendor=a"));
    }

    @Test
    void keepsATraceparentTheEncoderSetItself() {
        TraceContext input = TraceContext.find(INPUT);
        List<Header> own = List.of(traceparent(OTHER));

        assertThat(input.applyTo(own)).isSameAs(own);
        assertThat(TraceContext.of(CHILD, null, input).applyTo(own)).isSameAs(own);
    }

    @Test
    void replacesACopiedTraceparentByTheOutputsOwnContext() {
        TraceContext output = TraceContext.of(CHILD, "vendor=b", TraceContext.find(INPUT));

        List<Header> out = output.applyTo(INPUT);

        assertThat(out).containsExactly(Header.of("region", "eu"), traceparent(CHILD), tracestate("vendor=b"));
    }

    @Test
    void dropsACopiedTracestateWhenTheOutputHasNone() {
        TraceContext output = TraceContext.of(CHILD, "", TraceContext.find(INPUT));

        assertThat(output.tracestate()).isNull();
        assertThat(output.applyTo(INPUT)).containsExactly(Header.of("region", "eu"), traceparent(CHILD));
    }

    @Test
    void addsANewRootContextWhenTheInputHadNone() {
        TraceContext output = TraceContext.of(CHILD, null, null);

        assertThat(output.inputTraceparent()).isNull();
        assertThat(output.applyTo(List.of())).containsExactly(traceparent(CHILD));
        List<Header> own = List.of(traceparent(OTHER));
        assertThat(output.applyTo(own)).isSameAs(own);
    }
}
