package io.etl.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.testkit.driver.PipelineTestDriver;
import io.etl.testkit.driver.TestSink;
import io.etl.testkit.driver.TestSource;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A running service's HTTP endpoint: {@code /topology}, and the port it takes when the preferred one is taken. */
class ServiceEndpointTest {

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void servesTheTopologyAsTextAndAsMermaidWhileTheServiceRuns() throws Exception {
        PipelineTestDriver parts = PipelineTestDriver.create();
        TestSource<String> in = parts.source("in", 1);
        TestSink<String> out = parts.sink("out");
        PipelineFactory factory = new PipelineFactory() {
            @Override
            public String name() {
                return "upper";
            }

            @Override
            public Pipeline create(PipelineConfig config) {
                return Pipeline.named("upper")
                        .from(in)
                        .map("upper", String::toUpperCase)
                        .to(out);
            }
        };
        StopSignal stop = StopSignal.manual();
        AtomicReference<String> base = new AtomicReference<>();
        List<HttpResponse<String>> answers = new ArrayList<>();
        PipelineService service = PipelineService.of(factory, PipelineConfig.defaults())
                .httpHost("127.0.0.1")
                .httpPort(freePort())
                .stopSignal(stop)
                .err(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
                .onListening(endpoint -> base.set("http://" + endpoint.address()))
                .onStarted(running -> {
                    try {
                        for (String query : List.of("", "?format=mermaid", "?format=svg")) {
                            answers.add(get(base.get() + HttpEndpoint.TOPOLOGY_PATH + query));
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    } finally {
                        stop.request("test");
                    }
                });

        assertThat(service.run()).isEqualTo(ExitCodes.OK);

        assertThat(answers.get(0).statusCode()).isEqualTo(200);
        assertThat(answers.get(0).body()).startsWith("pipeline 'upper'\n").contains("-> map 'upper'");
        assertThat(answers.get(1).statusCode()).isEqualTo(200);
        assertThat(answers.get(1).body()).startsWith("flowchart LR\n");
        assertThat(answers.get(2).statusCode()).isEqualTo(400);
        assertThat(answers.get(2).body()).contains("unknown format 'svg'");
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Test
    void aSecondServiceOnAPreferredPortThatIsTakenServesOnAFreeOne() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            PipelineTestDriver parts = PipelineTestDriver.create();
            TestSource<String> in = parts.source("in", 1);
            TestSink<String> out = parts.sink("out");
            StopSignal stop = StopSignal.manual();
            AtomicReference<HttpEndpoint> listening = new AtomicReference<>();
            ByteArrayOutputStream errors = new ByteArrayOutputStream();
            List<Integer> statuses = new ArrayList<>();
            PipelineService service = PipelineService.of(factory(in, out), PipelineConfig.defaults())
                    .httpHost("127.0.0.1")
                    .preferHttpPort(taken.getLocalPort())
                    .stopSignal(stop)
                    .err(new PrintStream(errors, true, StandardCharsets.UTF_8))
                    .onListening(listening::set)
                    .onStarted(running -> {
                        try {
                            statuses.add(get("http://" + listening.get().address() + HttpEndpoint.METRICS_PATH)
                                    .statusCode());
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        } finally {
                            stop.request("test");
                        }
                    });

            assertThat(service.run()).as("%s", errors).isEqualTo(ExitCodes.OK);
            assertThat(listening.get().port()).isNotEqualTo(taken.getLocalPort());
            assertThat(statuses).containsExactly(200);
        }
    }

    private static PipelineFactory factory(TestSource<String> in, TestSink<String> out) {
        return new PipelineFactory() {
            @Override
            public String name() {
                return "copy";
            }

            @Override
            public Pipeline create(PipelineConfig config) {
                return Pipeline.named("copy").from(in).to(out);
            }
        };
    }
}
