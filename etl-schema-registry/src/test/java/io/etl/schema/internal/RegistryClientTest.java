package io.etl.schema.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.kafka.common.SchemaRegistryConfig;
import io.etl.testkit.schema.SchemaRegistryServer;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RegistryClientTest {

    private static final String PAYMENT =
            "{\"type\":\"record\",\"name\":\"Payment\",\"fields\":" + "[{\"name\":\"id\",\"type\":\"string\"}]}";
    private static final String PAYMENT_V2 = "{\"type\":\"record\",\"name\":\"Payment\",\"fields\":"
            + "[{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"n\",\"type\":\"int\",\"default\":0}]}";
    private static final String PAYMENT_BROKEN = "{\"type\":\"record\",\"name\":\"Payment\",\"fields\":"
            + "[{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"n\",\"type\":\"int\"}]}";

    private final SchemaRegistryServer registry = SchemaRegistryServer.start();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @AfterEach
    void stop() {
        registry.close();
    }

    private RegistryClient client(SchemaRegistryConfig config) {
        return new RegistryClient(config, "sinks.out.kafka.schema_registry", new RegistryMetrics(meters, Tags.empty()));
    }

    @Test
    void shouldAskTheRegistryOnceForAnId() {
        int id = registry.register("payments-value", "AVRO", PAYMENT);
        RegistryClient client =
                client(SchemaRegistryConfig.custom().url(registry.url()).build());

        for (int i = 0; i < 5; i++) {
            assertThat(client.schemaById(id).schema()).contains("Payment");
        }

        assertThat(registry.requests("/schemas/ids/")).isEqualTo(1);
        assertThat(meters.counter(RegistryMetrics.REQUESTS, "operation", "schema_by_id", "outcome", "ok")
                        .count())
                .isEqualTo(1.0);
    }

    @Test
    void shouldMoveOnToTheNextUrlWhenOneDoesNotAnswer() throws IOException {
        int id = registry.register("payments-value", "AVRO", PAYMENT);
        RegistryClient client = client(SchemaRegistryConfig.custom()
                .url("http://127.0.0.1:" + freePort(), registry.url())
                .build());

        assertThat(client.schemaById(id).type()).isEqualTo(SchemaText.AVRO);
        assertThat(client.subjects()).containsExactly("payments-value");
    }

    @Test
    void shouldCallARegistryThatAnswersNowhereUnavailable() throws IOException {
        RegistryClient client = client(SchemaRegistryConfig.custom()
                .url("http://127.0.0.1:" + freePort())
                .build());

        assertThatThrownBy(() -> client.schemaById(1))
                .isInstanceOfSatisfying(
                        RegistryException.class,
                        e -> assertThat(e.unavailable()).isTrue())
                .hasMessageContaining("schema registry did not answer GET /schemas/ids/1");
    }

    @Test
    void shouldCallA5xxUnavailableAndA404NotFound() {
        RegistryClient client =
                client(SchemaRegistryConfig.custom().url(registry.url()).build());
        assertThatThrownBy(() -> client.schemaById(99)).isInstanceOfSatisfying(RegistryException.class, e -> {
            assertThat(e.notFound()).isTrue();
            assertThat(e.unavailable()).isFalse();
            assertThat(e.errorCode()).isEqualTo(RegistryException.SCHEMA_NOT_FOUND);
        });

        registry.forceStatus(503);

        assertThatThrownBy(() -> client.schemaById(99))
                .isInstanceOfSatisfying(
                        RegistryException.class,
                        e -> assertThat(e.unavailable()).isTrue());
    }

    @Test
    void shouldSendBasicAuthAndNameTheSettingWhenRefused() {
        registry.requireBasicAuth("etl", "s3cret");
        RegistryClient right =
                client(SchemaRegistryConfig.custom().url(registry.url()).build().withBasicAuth("etl", "s3cret"));
        RegistryClient wrong =
                client(SchemaRegistryConfig.custom().url(registry.url()).build().withBasicAuth("etl", "nope"));

        assertThat(right.subjects()).isEmpty();
        assertThatThrownBy(wrong::subjects)
                .isInstanceOfSatisfying(
                        RegistryException.class, e -> assertThat(e.status()).isEqualTo(401))
                .hasMessageContaining("basic_auth")
                .hasMessageNotContaining("nope");
    }

    @Test
    void shouldRegisterLookUpAndCheckCompatibility() {
        RegistryClient client =
                client(SchemaRegistryConfig.custom().url(registry.url()).build());
        SchemaText v1 = new SchemaText(SchemaText.AVRO, PAYMENT);

        int id = client.register("payments-value", v1);

        assertThat(client.lookup("payments-value", v1).version()).isEqualTo(1);
        assertThat(client.version("payments-value", "latest").id()).isEqualTo(id);
        assertThat(client.compatible("payments-value", new SchemaText(SchemaText.AVRO, PAYMENT_V2)))
                .isTrue();
        assertThat(client.compatible("payments-value", new SchemaText(SchemaText.AVRO, PAYMENT_BROKEN)))
                .isFalse();
        assertThatThrownBy(() -> client.register("payments-value", new SchemaText(SchemaText.AVRO, PAYMENT_BROKEN)))
                .isInstanceOfSatisfying(
                        RegistryException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(RegistryException.INCOMPATIBLE));
        assertThatThrownBy(() -> client.lookup("unknown-value", v1))
                .isInstanceOfSatisfying(
                        RegistryException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(RegistryException.SUBJECT_NOT_FOUND));
    }

    private static final String ADDRESS = "{\"type\":\"record\",\"name\":\"Address\",\"namespace\":\"io.etl.fixtures\","
            + "\"fields\":[{\"name\":\"city\",\"type\":\"string\"}]}";
    private static final String CUSTOMER =
            "{\"type\":\"record\",\"name\":\"Customer\",\"namespace\":\"io.etl.fixtures\","
                    + "\"fields\":[{\"name\":\"name\",\"type\":\"string\"},"
                    + "{\"name\":\"address\",\"type\":\"io.etl.fixtures.Address\"}]}";
    private static final String ORDER = "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"io.etl.fixtures\","
            + "\"fields\":[{\"name\":\"customer\",\"type\":\"io.etl.fixtures.Customer\"},"
            + "{\"name\":\"shipTo\",\"type\":\"io.etl.fixtures.Address\"}]}";
    private static final SchemaReference TO_ADDRESS = new SchemaReference("io.etl.fixtures.Address", "address", 1);
    private static final SchemaReference TO_CUSTOMER = new SchemaReference("io.etl.fixtures.Customer", "customer", 1);

    private void registerCustomerAndAddress() {
        registry.register("address", "AVRO", ADDRESS);
        registry.register(
                "customer",
                "AVRO",
                CUSTOMER,
                List.of(new SchemaRegistryServer.Reference("io.etl.fixtures.Address", "address", 1)));
    }

    @Test
    void shouldSendAndReadReferences() {
        registerCustomerAndAddress();
        RegistryClient client =
                client(SchemaRegistryConfig.custom().url(registry.url()).build());
        SchemaText order = new SchemaText(SchemaText.AVRO, ORDER, List.of(TO_CUSTOMER, TO_ADDRESS));

        int id = client.register("orders-value", order);
        RegistryClient fresh =
                client(SchemaRegistryConfig.custom().url(registry.url()).build());

        assertThat(fresh.schemaById(id).references()).containsExactly(TO_CUSTOMER, TO_ADDRESS);
        assertThat(fresh.lookup("orders-value", order).id()).isEqualTo(id);
        assertThat(fresh.version("customer", "1").schema().references()).containsExactly(TO_ADDRESS);
        assertThat(fresh.compatible("orders-value", order)).isTrue();
        assertThatThrownBy(() ->
                        fresh.lookup("orders-value", new SchemaText(SchemaText.AVRO, ORDER, List.of(TO_CUSTOMER))))
                .as("the same text with other references is another schema")
                .isInstanceOf(RegistryException.class);
    }

    @Test
    void shouldResolveReferencesDeepestFirstEachOnceAndAskOnce() {
        registerCustomerAndAddress();
        RegistryClient client =
                client(SchemaRegistryConfig.custom().url(registry.url()).build());
        SchemaText order = new SchemaText(SchemaText.AVRO, ORDER, List.of(TO_CUSTOMER, TO_ADDRESS));

        List<SubjectVersion> first = client.referencedSchemas(order);
        List<SubjectVersion> second = client.referencedSchemas(order);

        assertThat(first).extracting(SubjectVersion::subject).containsExactly("address", "customer");
        assertThat(second).isEqualTo(first);
        assertThat(registry.requests("/subjects/")).isEqualTo(2);
        assertThat(client.referencedSchemas(new SchemaText(SchemaText.AVRO, ORDER)))
                .isEmpty();
    }

    @Test
    void shouldNameTheSubjectAndVersionOfAReferenceTheRegistryDoesNotHave() {
        registerCustomerAndAddress();
        RegistryClient client =
                client(SchemaRegistryConfig.custom().url(registry.url()).build());
        SchemaText order = new SchemaText(
                SchemaText.AVRO, ORDER, List.of(new SchemaReference("io.etl.fixtures.Customer", "customer", 7)));
        SchemaText elsewhere = new SchemaText(
                SchemaText.AVRO, ORDER, List.of(new SchemaReference("io.etl.fixtures.Customer", "clients", 1)));

        assertThatThrownBy(() -> client.referencedSchemas(order))
                .isInstanceOfSatisfying(RegistryException.class, e -> {
                    assertThat(e.notFound()).isTrue();
                    assertThat(e.errorCode()).isEqualTo(RegistryException.VERSION_NOT_FOUND);
                })
                .hasMessageContaining("'io.etl.fixtures.Customer' (subject 'customer', version 7)");
        assertThatThrownBy(() -> client.referencedSchemas(elsewhere))
                .isInstanceOfSatisfying(
                        RegistryException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(RegistryException.SUBJECT_NOT_FOUND))
                .hasMessageContaining("(subject 'clients', version 1)");
    }

    @Test
    void shouldCallAReferenceOfAStoppedRegistryUnavailable() {
        registerCustomerAndAddress();
        RegistryClient client =
                client(SchemaRegistryConfig.custom().url(registry.url()).build());
        registry.stop();

        assertThatThrownBy(() -> client.referencedSchemas(new SchemaText(SchemaText.AVRO, ORDER, List.of(TO_CUSTOMER))))
                .isInstanceOfSatisfying(
                        RegistryException.class,
                        e -> assertThat(e.unavailable()).isTrue());
    }

    @Test
    void shouldTimeOutARegistryThatNeverAnswers() throws IOException {
        try (ServerSocket silent = new ServerSocket(0)) {
            RegistryClient client = client(SchemaRegistryConfig.custom()
                    .url("http://127.0.0.1:" + silent.getLocalPort())
                    .build()
                    .withRequestTimeout(Duration.ofMillis(300)));

            assertThatThrownBy(() -> client.schemaById(1))
                    .isInstanceOfSatisfying(
                            RegistryException.class,
                            e -> assertThat(e.unavailable()).isTrue());
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
