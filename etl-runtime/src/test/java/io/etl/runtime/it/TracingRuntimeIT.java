package io.etl.runtime.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.etl.runtime.ExitCodes;
import io.etl.runtime.it.CopyYaml.Section;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime jar with the standard OTEL_* variables: spans reach an OTLP endpoint, and the output topic's
 * traceparent headers stay in the input's traces.
 */
@EmbeddedKafka(shared = true)
class TracingRuntimeIT {

    private static final int RECORDS = 20;

    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void exportsSpansOverOtlpAndKeepsTheInputsTraceIdsOnTheOutput(KafkaTestCluster kafka) throws Exception {
        CopyTopics t = CopyTopics.random();
        kafka.createTopic(t.input(), 1);
        kafka.createTopic(t.output(), 1);
        List<String> traceIds = new ArrayList<>();
        List<TestRecord> records = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            String traceId = String.format("%032x", 0x5eedL * 1000 + i);
            traceIds.add(traceId);
            records.add(TestRecord.of("k" + i, "v" + i)
                    .withHeader("traceparent", "00-" + traceId + "-" + String.format("%016x", 0xfeedL + i) + "-01"));
        }
        kafka.produce(t.input(), records);

        List<byte[]> exported = Collections.synchronizedList(new ArrayList<>());
        HttpServer collector = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        collector.createContext("/v1/traces", exchange -> {
            exported.add(exchange.getRequestBody().readAllBytes());
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        collector.start();
        String service = "copy-" + t.uid();
        Path config = CopyYaml.of(t.uid(), kafka.bootstrapServers(), t.input(), t.output())
                .with(Section.SOURCE, "auto_offset_reset: earliest")
                .with(Section.SINK, "batch: {max_records: 100, linger: 5ms}")
                .with(Section.TOP, "checkpoint: {interval: 200ms, drain_timeout: 10s}")
                .write(dir);
        try (ChildRuntime child = ChildRuntime.start(
                dir,
                t.uid(),
                config,
                Map.of(
                        "OTEL_SERVICE_NAME",
                        service,
                        "OTEL_EXPORTER_OTLP_ENDPOINT",
                        "http://127.0.0.1:" + collector.getAddress().getPort(),
                        "OTEL_EXPORTER_OTLP_PROTOCOL",
                        "http/protobuf",
                        "OTEL_BSP_SCHEDULE_DELAY",
                        "200"))) {
            await("all records copied")
                    .atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        assertThat(child.isAlive())
                                .as("the runtime exited early; stderr:%n%s", child.err())
                                .isTrue();
                        return kafka.endTotal(t.output()) >= RECORDS;
                    });
            child.sigterm();
            assertThat(child.waitFor(Duration.ofSeconds(30)))
                    .as("exit code; stderr:%n%s", child.err())
                    .isEqualTo(ExitCodes.OK);
            assertThat(child.err()).contains("OpenTelemetry: exporting spans");
        } finally {
            collector.stop(0);
        }

        for (TestRecord out : kafka.readAll(t.output())) {
            int i = Integer.parseInt(out.valueAsString().substring(1));
            String[] parent = out.headerAsString("traceparent").split("-");
            assertThat(parent[1]).as("trace id of %s", out.valueAsString()).isEqualTo(traceIds.get(i));
            assertThat(parent[2])
                    .as("span id of %s: the producer span's", out.valueAsString())
                    .isNotEqualTo(String.format("%016x", 0xfeedL + i));
        }
        assertThat(exported).as("OTLP requests").isNotEmpty();
        String all = String.join(
                "\n",
                exported.stream()
                        .map(b -> new String(b, StandardCharsets.ISO_8859_1))
                        .toList());
        assertThat(all).as("the service name in the exported resource").contains(service);
        for (String traceId : traceIds) {
            assertThat(all)
                    .as("spans of trace %s exported", traceId)
                    .contains(new String(HexFormat.of().parseHex(traceId), StandardCharsets.ISO_8859_1));
        }
    }

    @Test
    void theJarCarriesTheOtlpExporterWithTheJdkSenderAndNoOkHttp() throws IOException {
        List<String> entries;
        try (JarFile jar = new JarFile(ChildRuntime.runtimeJar().toFile())) {
            entries = Collections.list(jar.entries()).stream()
                    .map(ZipEntry::getName)
                    .toList();
        }
        assertThat(entries)
                .contains(
                        "io/opentelemetry/sdk/autoconfigure/AutoConfiguredOpenTelemetrySdk.class",
                        "io/etl/runtime/internal/TraceExport.class")
                .anyMatch(e -> e.startsWith("io/opentelemetry/exporter/otlp/"))
                .anyMatch(e -> e.startsWith("io/opentelemetry/exporter/sender/jdk/"))
                .noneMatch(e -> e.startsWith("okhttp3/") || e.startsWith("kotlin/"));
    }
}
