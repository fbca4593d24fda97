package io.etl.core.internal.config;

import static io.etl.core.internal.config.Configs.problems;
import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.config.ConnectorConfigType;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ErrorPolicy;
import java.time.Duration;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class SecretsNotEchoedTest {

    /** A connector whose secret-looking keys are durations and enums, the only kinds whose values are echoed. */
    public record TokenConfig(Duration tokenTtl, ErrorPolicy keyPolicy, Integer saslPassword) {}

    static final class TokenType implements ConnectorConfigType<TokenConfig> {
        @Override
        public Role role() {
            return Role.SINK;
        }

        @Override
        public String key() {
            return "vault";
        }

        @Override
        public Class<TokenConfig> type() {
            return TokenConfig.class;
        }
    }

    @Test
    void valuesOfSecretLookingKeysAreNeverEchoed() {
        ConfigException e = Assertions.catchThrowableOfType(
                ConfigException.class, () -> ConfigLoader.parse("""
                sinks:
                  eu:
                    vault: {token_ttl: hunter2, key_policy: hunter3, sasl_password: hunter4}
                """, name -> null, List.of(new TokenType())));

        assertThat(e.problems())
                .extracting(Object::toString)
                .containsExactly(
                        "sinks.eu.vault.token_ttl: value is not a duration; use 250ms, 30s, 5m, 1h or ISO-8601",
                        "sinks.eu.vault.key_policy: value is not one of skip, fail, dead_letter, retry",
                        "sinks.eu.vault.sasl_password: expected a whole number");
        assertThat(e.getMessage()).doesNotContain("hunter");
    }

    @Test
    void unknownSecretKeysAreNamedButTheirValuesAreNot() {
        assertThat(String.join("\n", problems("""
                sinks:
                  eu:
                    kafka: {brokers: b, topic: t, ssl_key_password: hunter2, sasl_jaas_config: hunter3}
                """)))
                .contains("sinks.eu.kafka.ssl_key_password: unknown key", "sinks.eu.kafka.sasl_jaas_config")
                .doesNotContain("hunter");
    }
}
