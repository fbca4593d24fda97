package io.etl.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.etl.runtime.internal.TraceExport;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.trace.Span;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** OTLP export is set up from the standard OTEL_* variables only, and never fails start-up. */
class TraceExportTest {

    @BeforeEach
    @AfterEach
    void noGlobalSdk() {
        GlobalOpenTelemetry.resetForTest();
    }

    private static boolean globalSdkRegistered() {
        Span probe = GlobalOpenTelemetry.getTracer("probe").spanBuilder("probe").startSpan();
        return probe.getSpanContext().isValid();
    }

    @Test
    void exportIsRequestedByAnyOfTheStandardVariables() {
        assertThat(TraceExport.requested(Map.of())).isFalse();
        assertThat(TraceExport.requested(Map.of("OTEL_METRICS_EXPORTER", "otlp", "OTEL_SERVICE_NAME", " ")))
                .isFalse();
        for (String name : TraceExport.TRIGGERS) {
            assertThat(TraceExport.requested(Map.of(name, "x"))).as(name).isTrue();
        }
    }

    @Test
    void nothingIsBuiltWithoutTheVariables() {
        try (TraceExport export = TraceExport.start(Map.of("PATH", "/usr/bin"))) {
            assertThat(export.active()).isFalse();
            assertThat(globalSdkRegistered()).isFalse();
        }
    }

    @Test
    void aConfigurationTheSdkRejectsDoesNotFailStartUp() {
        try (TraceExport export = TraceExport.start(Map.of("OTEL_TRACES_EXPORTER", "carrier-pigeon"))) {
            assertThat(export.active()).isFalse();
            assertThat(globalSdkRegistered()).isFalse();
        }
    }

    @Test
    void aDisabledSdkIsNotBuilt() {
        try (TraceExport export =
                TraceExport.start(Map.of("OTEL_SERVICE_NAME", "orders", "OTEL_SDK_DISABLED", "true"))) {
            assertThat(export.active()).isFalse();
        }
    }

    @Test
    void spansReachAnOtlpEndpointNamedByTheVariables() throws IOException {
        List<String> received = new CopyOnWriteArrayList<>();
        HttpServer collector = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        collector.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            received.add(
                    exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + " " + body.length);
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        collector.start();
        try (TraceExport export = TraceExport.start(Map.of(
                "OTEL_SERVICE_NAME",
                "orders-split",
                "OTEL_EXPORTER_OTLP_PROTOCOL",
                "http/protobuf",
                "OTEL_EXPORTER_OTLP_ENDPOINT",
                "http://127.0.0.1:" + collector.getAddress().getPort()))) {
            assertThat(export.active()).isTrue();
            assertThat(globalSdkRegistered())
                    .as("registered as the global OpenTelemetry")
                    .isTrue();
            GlobalOpenTelemetry.getTracer("test")
                    .spanBuilder("process in")
                    .startSpan()
                    .end();
        } finally {
            collector.stop(0);
        }
        assertThat(received)
                .as("requests the collector got")
                .anySatisfy(r -> assertThat(r).startsWith("POST /v1/traces "));
        assertThat(received).noneSatisfy(r -> assertThat(r).contains("/v1/metrics"));
    }
}
