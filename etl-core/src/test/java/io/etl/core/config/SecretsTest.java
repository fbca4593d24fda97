package io.etl.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SecretsTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "ssl.key.password",
                "ssl.keystore.password",
                "ssl.keystore.key",
                "sasl.jaas.config",
                "sasl_password",
                "client-secret",
                "sasl.oauthbearer.token.endpoint.url",
                "aws.credentials",
                "ssl.private.key",
                "api_key",
                "API_KEY",
                "apiKey",
                "sinks.eu.kafka.producer.ssl.key.password"
            })
    void recognisesSecretKeys(String key) {
        assertThat(Secrets.isSecretKey(key)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "bootstrap.servers",
                "key.serializer",
                "key.deserializer",
                "acks",
                "topic",
                "ssl.truststore.location",
                "max_message_bytes"
            })
    void leavesOrdinaryKeysAlone(String key) {
        assertThat(Secrets.isSecretKey(key)).isFalse();
    }

    @Test
    void redactHidesSecretValuesAndKeepsOrderAndTheRest() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("bootstrap.servers", "b:9092");
        properties.put("sasl.jaas.config", "org.apache.kafka...PlainLoginModule required password=\"hunter2\";");
        properties.put("ssl.key.password", "hunter3");
        properties.put("key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
        properties.put("ssl.keystore.key", null);

        Map<String, Object> redacted = Secrets.redact(properties);

        assertThat(redacted.keySet())
                .containsExactly(
                        "bootstrap.servers",
                        "sasl.jaas.config",
                        "ssl.key.password",
                        "key.serializer",
                        "ssl.keystore.key");
        assertThat(redacted)
                .containsEntry("bootstrap.servers", "b:9092")
                .containsEntry("sasl.jaas.config", Secrets.REDACTED)
                .containsEntry("ssl.key.password", Secrets.REDACTED)
                .containsEntry("key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer")
                .containsEntry("ssl.keystore.key", null);
        assertThat(redacted.toString()).doesNotContain("hunter");
    }

    @Test
    void aProtectedMapReadsRealValuesButPrintsRedacted() {
        Map<String, String> raw = new LinkedHashMap<>();
        raw.put("linger.ms", "20");
        raw.put("sasl.jaas.config", "ScramLoginModule required username=\"u\" password=\"hunter2\";");
        Map<String, String> protectedMap = Secrets.protect(raw);

        assertThat(protectedMap.get("sasl.jaas.config")).contains("hunter2");
        assertThat(protectedMap).isEqualTo(raw);
        assertThat(protectedMap.toString())
                .contains("linger.ms=20")
                .doesNotContain("hunter2")
                .contains(Secrets.REDACTED);
        assertThat(Secrets.protect(protectedMap)).isSameAs(protectedMap);
        assertThatThrownBy(() -> protectedMap.put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
    }
}
