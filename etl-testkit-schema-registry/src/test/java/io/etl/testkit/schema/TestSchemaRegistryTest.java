package io.etl.testkit.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.testkit.KafkaTestCluster;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TestSchemaRegistryTest {

    /** Never contacted: only a cluster outside any container, for the choice to look at. */
    private final KafkaTestCluster notInAContainer = KafkaTestCluster.external("127.0.0.1:1");

    @AfterEach
    void restore() {
        System.clearProperty("etl.test.kafka");
        System.clearProperty("etl.test.schema-registry");
        System.clearProperty("etl.test.schema-registry.url");
        notInAContainer.close();
    }

    private static int subjectsStatus(String url) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(url + "/subjects")).build(),
                        HttpResponse.BodyHandlers.ofString());
        return response.statusCode();
    }

    @Test
    void startsTheKitsServerByDefault() throws Exception {
        try (TestSchemaRegistry registry = TestSchemaRegistry.fromEnvironment(notInAContainer)) {
            assertThat(registry.kind()).isEqualTo(TestSchemaRegistry.Kind.SERVER);
            assertThat(subjectsStatus(registry.url())).isEqualTo(200);
        }
    }

    @Test
    void startsTheServerWithAReasonWhenTheContainerCannotRun() throws Exception {
        System.setProperty("etl.test.schema-registry", "testcontainers");
        String logged = standardErrorWhile(() -> {
            try (TestSchemaRegistry registry = TestSchemaRegistry.fromEnvironment(notInAContainer)) {
                // with Docker or without, a broker outside a container cannot hold the container's schemas
                assertThat(registry.kind()).isEqualTo(TestSchemaRegistry.Kind.SERVER);
            }
        });
        assertThat(logged)
                .contains("WARN")
                .contains("-Detl.test.schema-registry=testcontainers) was asked for")
                .contains("starting the kit's registry server instead");
    }

    @Test
    void followsTheBrokersSwitchToContainersWhenItsOwnIsUnset() throws Exception {
        System.setProperty("etl.test.kafka", "testcontainers");
        String logged = standardErrorWhile(() -> {
            try (TestSchemaRegistry registry = TestSchemaRegistry.fromEnvironment(notInAContainer)) {
                assertThat(registry.kind()).isEqualTo(TestSchemaRegistry.Kind.SERVER);
            }
        });
        assertThat(logged).contains("was asked for");
    }

    @Test
    void usesTheRegistryNamedByTheUrlPropertyAndLeavesItRunning() throws Exception {
        try (SchemaRegistryServer running = SchemaRegistryServer.start()) {
            System.setProperty("etl.test.schema-registry.url", running.url());
            try (TestSchemaRegistry external = TestSchemaRegistry.fromEnvironment(notInAContainer)) {
                assertThat(external.kind()).isEqualTo(TestSchemaRegistry.Kind.EXTERNAL);
                assertThat(external.url()).isEqualTo(running.url());
            }
            assertThat(running.running()).isTrue();
            assertThat(subjectsStatus(running.url())).isEqualTo(200);
        }
    }

    @Test
    void rejectsAnUnknownMode() {
        System.setProperty("etl.test.schema-registry", "docker");
        assertThatThrownBy(() -> TestSchemaRegistry.fromEnvironment(notInAContainer))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("server, testcontainers");
    }

    private interface Action {
        void run() throws Exception;
    }

    private static String standardErrorWhile(Action action) throws Exception {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
