package io.etl.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.testkit.driver.PipelineTestDriver;
import io.etl.testkit.driver.TestSink;
import io.etl.testkit.driver.TestSource;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
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

/** A running service answers {@code /topology} with what {@code describe} prints. */
class TopologyEndpointTest {

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
}
