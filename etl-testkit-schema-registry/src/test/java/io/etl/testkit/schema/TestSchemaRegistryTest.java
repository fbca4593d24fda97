package io.etl.testkit.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etl.testkit.KafkaTestCluster;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
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

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CUSTOMER =
            "{\"type\":\"record\",\"name\":\"Customer\",\"namespace\":\"io.etl.fixtures\",\"fields\":["
                    + "{\"name\":\"name\",\"type\":\"string\"}]}";
    private static final String CUSTOMER_V2 =
            "{\"type\":\"record\",\"name\":\"Customer\",\"namespace\":\"io.etl.fixtures\",\"fields\":["
                    + "{\"name\":\"name\",\"type\":\"string\"},"
                    + "{\"name\":\"email\",\"type\":[\"null\",\"string\"],\"default\":null}]}";
    private static final String ORDER =
            "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"io.etl.fixtures\",\"fields\":["
                    + "{\"name\":\"id\",\"type\":\"string\"},"
                    + "{\"name\":\"customer\",\"type\":\"io.etl.fixtures.Customer\"}]}";
    private static final String ORDER_V2 =
            "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"io.etl.fixtures\",\"fields\":["
                    + "{\"name\":\"id\",\"type\":\"string\"},"
                    + "{\"name\":\"customer\",\"type\":\"io.etl.fixtures.Customer\"},"
                    + "{\"name\":\"note\",\"type\":\"string\",\"default\":\"\"}]}";

    private static ObjectNode body(String schema, String referencedSubject, int version) {
        ObjectNode body = JSON.createObjectNode().put("schema", schema);
        body.putArray("references")
                .addObject()
                .put("name", "io.etl.fixtures.Customer")
                .put("subject", referencedSubject)
                .put("version", version);
        return body;
    }

    private record Reply(int status, JsonNode body) {}

    private static Reply send(String url, String method, JsonNode body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json");
        request.method(
                method,
                body == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body.toString()));
        HttpResponse<String> response =
                HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(response.statusCode(), JSON.readTree(response.body()));
    }

    @Test
    void returnsTheReferencesOfASchemaByIdByVersionAndByLookup() throws Exception {
        try (SchemaRegistryServer registry = SchemaRegistryServer.start()) {
            int customer = registry.register("customer", "AVRO", CUSTOMER);
            int order = registry.register(
                    "orders-value",
                    "AVRO",
                    ORDER,
                    List.of(new SchemaRegistryServer.Reference("io.etl.fixtures.Customer", "customer", 1)));
            JsonNode expected =
                    JSON.readTree("[{\"name\":\"io.etl.fixtures.Customer\",\"subject\":\"customer\",\"version\":1}]");

            Reply byId = send(registry.url() + "/schemas/ids/" + order, "GET", null);
            Reply byVersion = send(registry.url() + "/subjects/orders-value/versions/1", "GET", null);
            Reply lookup = send(registry.url() + "/subjects/orders-value", "POST", body(ORDER, "customer", 1));
            Reply withoutReferences = send(
                    registry.url() + "/subjects/orders-value",
                    "POST",
                    JSON.createObjectNode().put("schema", ORDER));

            assertThat(byId.body().get("references")).isEqualTo(expected);
            assertThat(byId.body().get("schema").asText())
                    .as("the referenced type stays a name")
                    .doesNotContain("\"fields\":[{\"name\":\"name\"");
            assertThat(byVersion.body().get("references")).isEqualTo(expected);
            assertThat(lookup.status()).isEqualTo(200);
            assertThat(lookup.body().get("id").asInt()).isEqualTo(order);
            assertThat(lookup.body().get("references")).isEqualTo(expected);
            assertThat(withoutReferences.status())
                    .as("the text alone is another schema, and not a valid one")
                    .isEqualTo(422);
            assertThat(send(registry.url() + "/schemas/ids/" + customer, "GET", null)
                            .body()
                            .has("references"))
                    .as("no references, no field")
                    .isFalse();
        }
    }

    @Test
    void keepsTheSameTextWithOtherReferencesAsAnotherSchemaAndChecksIt() throws Exception {
        try (SchemaRegistryServer registry = SchemaRegistryServer.start()) {
            registry.register("customer", "AVRO", CUSTOMER);
            registry.register("customer", "AVRO", CUSTOMER_V2);
            Reply first = send(registry.url() + "/subjects/orders-value/versions", "POST", body(ORDER, "customer", 1));
            Reply again = send(registry.url() + "/subjects/orders-value/versions", "POST", body(ORDER, "customer", 1));
            Reply second = send(registry.url() + "/subjects/orders-value/versions", "POST", body(ORDER, "customer", 2));
            Reply compatible = send(
                    registry.url() + "/compatibility/subjects/orders-value/versions/latest",
                    "POST",
                    body(ORDER_V2, "customer", 2));

            assertThat(again.body().get("id")).isEqualTo(first.body().get("id"));
            assertThat(second.status()).isEqualTo(200);
            assertThat(second.body().get("id")).isNotEqualTo(first.body().get("id"));
            assertThat(compatible.body().get("is_compatible").asBoolean()).isTrue();
        }
    }

    @Test
    void refusesAReferenceToAVersionItDoesNotHave() throws Exception {
        try (SchemaRegistryServer registry = SchemaRegistryServer.start()) {
            registry.register("customer", "AVRO", CUSTOMER);

            Reply unknownVersion =
                    send(registry.url() + "/subjects/orders-value/versions", "POST", body(ORDER, "customer", 2));
            Reply unknownSubject =
                    send(registry.url() + "/subjects/orders-value/versions", "POST", body(ORDER, "client", 1));

            assertThat(unknownVersion.status()).isEqualTo(422);
            assertThat(unknownVersion.body().get("error_code").asInt()).isEqualTo(42201);
            assertThat(unknownVersion.body().get("message").asText())
                    .contains("version 2 of subject 'customer'", "io.etl.fixtures.Customer");
            assertThat(unknownSubject.status()).isEqualTo(422);
            assertThat(unknownSubject.body().get("message").asText()).contains("subject 'client'");
            assertThat(send(registry.url() + "/subjects", "GET", null).body())
                    .as("a refused registration creates no subject")
                    .hasSize(1);
            assertThatThrownBy(() -> registry.register(
                            "orders-value",
                            "AVRO",
                            ORDER,
                            List.of(new SchemaRegistryServer.Reference("io.etl.fixtures.Customer", "customer", 3))))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("version 3 of subject 'customer'");
        }
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
