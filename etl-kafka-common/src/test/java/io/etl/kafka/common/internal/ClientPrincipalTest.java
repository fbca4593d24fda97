package io.etl.kafka.common.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.kafka.common.KafkaSaslConfig;
import io.etl.kafka.common.KafkaSecurityConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClientPrincipalTest {

    private static final String JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required"
            + " username=\"etl-passthrough\" password=\"s3cret\";";

    @Test
    void theTypedSectionsPrincipalComesFirst() {
        KafkaSecurityConfig security = KafkaSecurityConfig.saslSsl(KafkaSaslConfig.scramSha512("etl", "pw"), null);

        assertThat(ClientPrincipal.of(security, Map.of("sasl.jaas.config", JAAS)))
                .isEqualTo("User:etl");
    }

    @Test
    void withoutOneTheJaasUserNameOfTheClientPropertiesIsNamed() {
        assertThat(ClientPrincipal.of(null, Map.of("sasl.jaas.config", JAAS))).isEqualTo("User:etl-passthrough");
        assertThat(ClientPrincipal.of(KafkaSecurityConfig.plaintext(), Map.of("sasl.jaas.config", JAAS)))
                .isEqualTo("User:etl-passthrough");
    }

    @Test
    void nothingIsNamedWhenNeitherSaysWho() {
        assertThat(ClientPrincipal.of(null, Map.of())).isNull();
        assertThat(ClientPrincipal.ofJaas("com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true;"))
                .isNull();
        assertThat(ClientPrincipal.ofJaas(null)).isNull();
    }
}
