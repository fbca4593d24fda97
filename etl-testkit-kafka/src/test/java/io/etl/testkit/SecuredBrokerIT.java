package io.etl.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

class SecuredBrokerIT {

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class SaslScram {

        private KafkaTestCluster kafka;
        private ClusterSecurity security;

        @BeforeAll
        void start() {
            kafka = KafkaTestCluster.embedded(BrokerOptions.builder()
                    .security(BrokerSecurity.saslScram()
                            .user("alice", "alice-secret")
                            .user("bob", "bob-secret")
                            .aclAuthorizer(true)
                            .build())
                    .build());
            security = kafka.security().orElseThrow();
            kafka.createTopic("orders", 1); // as the super user
        }

        @AfterAll
        void stop() {
            kafka.close();
        }

        @Test
        void acceptsTheRightPassword() throws Exception {
            security.allowTopic("alice", "orders", AclOperation.DESCRIBE);
            try (Admin admin = Admin.create(new HashMap<>(security.clientProperties("alice", "alice-secret")))) {
                assertThat(admin.describeTopics(List.of("orders"))
                                .allTopicNames()
                                .get(10, TimeUnit.SECONDS))
                        .containsKey("orders");
            }
        }

        @Test
        void rejectsAWrongPasswordWithSaslAuthenticationExceptionQuickly() {
            Map<String, Object> config = new HashMap<>(security.clientProperties("alice", "not-her-password"));
            long start = System.nanoTime();
            try (Admin admin = Admin.create(config)) {
                assertThatThrownBy(() -> admin.listTopics().names().get(20, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class)
                        .hasCauseInstanceOf(SaslAuthenticationException.class);
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        }

        @Test
        void deniesWritesToAUserWithoutWriteAclAndAllowsThemOnceGranted() throws Exception {
            security.allowTopic("bob", "orders", AclOperation.DESCRIBE);
            Map<String, Object> config = new HashMap<>(security.clientProperties("bob"));
            config.put("max.block.ms", "10000");
            config.put("enable.idempotence", "false"); // idempotence would need IDEMPOTENT_WRITE first
            try (KafkaProducer<String, String> producer =
                    new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
                assertThatThrownBy(() -> producer.send(new ProducerRecord<>("orders", "k", "v"))
                                .get(10, TimeUnit.SECONDS))
                        .hasCauseInstanceOf(TopicAuthorizationException.class);
            }

            security.allowTopic("bob", "orders", AclOperation.WRITE);
            try (KafkaProducer<String, String> producer =
                    new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
                assertThat(producer.send(new ProducerRecord<>("orders", "k", "from-bob"))
                                .get(10, TimeUnit.SECONDS)
                                .offset())
                        .isGreaterThanOrEqualTo(0);
            }
            assertThat(kafka.readAll("orders"))
                    .extracting(TestRecord::valueAsString)
                    .contains("from-bob");
        }

        @Test
        void handsBackTheTrustMaterial() throws Exception {
            assertThat(security.truststorePath()).exists();
            assertThat(security.truststoreType()).isEqualTo("PKCS12");
            assertThat(Files.readString(security.caCertificatePemPath()))
                    .startsWith("-----BEGIN CERTIFICATE-----")
                    .isEqualTo(security.caCertificatePem());
            assertThat(kafka.clientProperties())
                    .containsEntry("security.protocol", "SASL_SSL")
                    .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                    .containsEntry(
                            "ssl.truststore.location", security.truststorePath().toString());
        }
    }

    @Nested
    class ForkedScram {

        @Test
        void securesAForkedBrokerTheSameWay() {
            try (ForkedKafkaCluster kafka = KafkaTestCluster.forkedSingle(BrokerOptions.builder()
                    .security(BrokerSecurity.saslScram()
                            .user("dave", "dave-secret")
                            .aclAuthorizer(true)
                            .build())
                    .build())) {
                ClusterSecurity security = kafka.security().orElseThrow();
                kafka.createTopic("forked-secure", 1);
                security.allowTopic("dave", "forked-secure", AclOperation.DESCRIBE, AclOperation.READ);
                kafka.produce("forked-secure", List.of(TestRecord.of("k", "v")));

                KafkaTestCluster asDave =
                        KafkaTestCluster.external(kafka.bootstrapServers(), security.clientProperties("dave"));
                assertThat(asDave.readAll("forked-secure"))
                        .extracting(TestRecord::valueAsString)
                        .containsExactly("v");
                asDave.close();
            }
        }
    }

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class MutualTls {

        private KafkaTestCluster kafka;
        private ClusterSecurity security;

        @BeforeAll
        void start() {
            kafka = KafkaTestCluster.embedded(BrokerOptions.builder()
                    .security(BrokerSecurity.mutualTls().user("carol").build())
                    .build());
            security = kafka.security().orElseThrow();
        }

        @AfterAll
        void stop() {
            kafka.close();
        }

        @Test
        void acceptsAClientWithACertificateSignedByTheTestCa() {
            kafka.createTopic("tls", 1);
            kafka.produce("tls", List.of(TestRecord.of("k", "v")));
            assertThat(kafka.readAll("tls")).hasSize(1);
            try (Admin admin = Admin.create(new HashMap<>(security.clientProperties("carol")))) {
                assertThat(admin.listTopics().names()).succeedsWithin(Duration.ofSeconds(10));
            }
        }

        @Test
        void rejectsAClientWithoutACertificate() {
            Map<String, Object> config = new HashMap<>(security.clientPropertiesWithoutCertificate());
            long start = System.nanoTime();
            try (Admin admin = Admin.create(config)) {
                assertThatThrownBy(() -> admin.listTopics().names().get(20, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class)
                        .hasCauseInstanceOf(SslAuthenticationException.class);
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        }

        @Test
        void offersNoScramCredentials() {
            assertThatThrownBy(() -> security.clientProperties("carol", "x"))
                    .isInstanceOf(UnsupportedOperationException.class);
        }
    }
}
