package io.etl.testkit.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class TestHttpServiceTest {

    private final HttpClient client = HttpClient.newHttpClient();

    private HttpResponse<String> get(TestHttpService service, String path) throws Exception {
        return client.send(
                HttpRequest.newBuilder(service.uri().resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void answersEachPathWithItsBodyAfterTheLatency() throws Exception {
        try (TestHttpService service = TestHttpService.start(Duration.ofMillis(30), p -> "{\"p\":\"" + p + "\"}")) {
            long start = System.nanoTime();
            HttpResponse<String> r = get(service, "customers/7");
            long tookMillis = (System.nanoTime() - start) / 1_000_000;

            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("{\"p\":\"/customers/7\"}");
            assertThat(tookMillis).isBetween(30L, 2_000L);
            assertThat(System.getProperty(TestHttpService.NODELAY_PROPERTY)).isNotNull();
        }
    }

    @Test
    void holdsManyRequestsAtOnceWithoutAThreadEach() throws Exception {
        try (TestHttpService service = TestHttpService.start(Duration.ofMillis(300), p -> "{}")) {
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                calls.add(client.sendAsync(
                        HttpRequest.newBuilder(service.uri().resolve("k/" + i)).build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).join();

            assertThat(calls).allSatisfy(c -> assertThat(c.join().statusCode()).isEqualTo(200));
            assertThat(service.maxConcurrent()).isGreaterThan(10);
            assertThat(service.requests()).isEqualTo(50);
        }
    }

    @Test
    void rulesMakeMatchingPathsSlowOrFail() throws Exception {
        try (TestHttpService service = TestHttpService.start(Duration.ZERO, p -> "{}")) {
            service.fail(p -> p.endsWith("/gone"), 404).slow(p -> p.endsWith("/hot"), Duration.ofMillis(200));

            assertThat(get(service, "x/gone").statusCode()).isEqualTo(404);
            long start = System.nanoTime();
            assertThat(get(service, "x/hot").statusCode()).isEqualTo(200);
            assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(200L);
        }
    }
}
