package io.etl.kafka.common.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.kafka.common.KafkaSaslConfig;
import io.etl.kafka.common.KafkaSecurityConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterUseTest {

    private static final String JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required"
            + " username=\"etl\" password=\"s3cret-xyzzy\";";

    @Test
    void principalComesFromTheJaasUsernameUnlessGiven() {
        Map<String, Object> props = Map.of("bootstrap.servers", "b:9093", "sasl.jaas.config", JAAS);

        assertThat(ClusterUse.write("sinks.eu.kafka", props, "t", 1000).principal())
                .isEqualTo("User:etl");
        assertThat(ClusterUse.write("sinks.eu.kafka", props, "t", 1000)
                        .withPrincipal("User:other")
                        .principal())
                .isEqualTo("User:other");
        assertThat(ClusterUse.read("source.o.kafka", Map.of("bootstrap.servers", "b:9092"), "t", "g")
                        .who())
                .isEqualTo("the client");
    }

    @Test
    void principalOfASecuritySectionIsNamedOnlyWhenTheSectionSaysIt() {
        ClusterUse use = ClusterUse.read("source.o.kafka", Map.of("bootstrap.servers", "b:9092"), "t", "g");

        assertThat(use.withPrincipalOf(null)).isSameAs(use);
        assertThat(use.withPrincipalOf(KafkaSecurityConfig.plaintext())).isSameAs(use);
        assertThat(use.withPrincipalOf(KafkaSecurityConfig.saslSsl(KafkaSaslConfig.scramSha512("etl", "pw"), null))
                        .who())
                .isEqualTo("principal User:etl");
    }

    @Test
    void printingAUseNeverShowsItsCredentials() {
        ClusterUse use = ClusterUse.write(
                "sinks.eu.kafka", Map.of("bootstrap.servers", "b", "sasl.jaas.config", JAAS), "orders-eu", 1000);

        assertThat(use.toString()).contains("sinks.eu.kafka", "orders-eu").doesNotContain("s3cret-xyzzy");
    }

    @Test
    void aWriteNeedsATopicWhileAPatternReadHasNone() {
        assertThatThrownBy(() -> ClusterUse.write("sinks.eu.kafka", Map.of("bootstrap.servers", "b"), null, 1))
                .hasMessageContaining("sinks.eu.kafka");
        assertThat(ClusterUse.read("source.o.kafka", Map.of("bootstrap.servers", "b"), null, "g")
                        .topic())
                .isNull();
    }
}
