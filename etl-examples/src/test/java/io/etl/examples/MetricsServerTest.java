package io.etl.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.metrics.EtlMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class MetricsServerTest {

    @Test
    void servesPrometheusTextOnLoopback() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.counter(EtlMetrics.SINK_RECORDS, EtlMetrics.TAG_PIPELINE, "p", EtlMetrics.TAG_SINK, "eu").increment(42);
        HttpClient http = HttpClient.newHttpClient();

        try (MetricsServer server = MetricsServer.start(registry, 0)) {
            assertThat(server.url()).startsWith("http://127.0.0.1:").endsWith("/metrics");
            HttpResponse<String> get = http.send(HttpRequest.newBuilder(URI.create(server.url())).build(),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create(server.url()))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(get.statusCode()).isEqualTo(200);
            assertThat(get.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/plain"));
            assertThat(get.body()).contains("etl_sink_records_total{pipeline=\"p\",sink=\"eu\"} 42.0");
            assertThat(post.statusCode()).isEqualTo(405);
        }
    }
}
