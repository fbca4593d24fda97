package io.etl.testkit.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.testkit.BrokerOptions;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.KerberosListener;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KerberosListenerConfigTest {

    private static final KerberosListener GSSAPI = new KerberosListener(
            Path.of("/kdc/krb5.conf"), Path.of("/kdc/kafka.keytab"), "kafka/localhost@EXAMPLE.COM", "kafka");

    private static NodeConfig node(NodeConfig.Role role, BrokerOptions options) {
        return new NodeConfig(
                1, role, 9092, 9093, 9094, Path.of("/tmp/x"), "1@127.0.0.1:9094", 1, options, null, false, 9095);
    }

    @Test
    void aKerberosListenerIsAnExtraSaslPlaintextGssapiListenerAdvertisedAsLocalhost() {
        Map<String, String> p = node(
                        NodeConfig.Role.COMBINED,
                        BrokerOptions.builder().kerberos(GSSAPI).build())
                .properties();
        assertThat(p.get("listeners")).contains("CLIENT://127.0.0.1:9092", "KERBEROS://127.0.0.1:9095");
        assertThat(p.get("advertised.listeners")).contains("CLIENT://127.0.0.1:9092", "KERBEROS://localhost:9095");
        assertThat(p.get("listener.security.protocol.map")).contains("CLIENT:PLAINTEXT", "KERBEROS:SASL_PLAINTEXT");
        assertThat(p)
                .containsEntry("listener.name.kerberos.sasl.enabled.mechanisms", "GSSAPI")
                .containsEntry("listener.name.kerberos.gssapi.sasl.kerberos.service.name", "kafka")
                .containsEntry("inter.broker.listener.name", "CLIENT");
        assertThat(p.get("listener.name.kerberos.gssapi.sasl.jaas.config"))
                .isEqualTo("com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true storeKey=true"
                        + " keyTab=\"/kdc/kafka.keytab\" principal=\"kafka/localhost@EXAMPLE.COM\";");
    }

    @Test
    void withoutKerberosNothingChanges() {
        Map<String, String> p =
                node(NodeConfig.Role.COMBINED, BrokerOptions.defaults()).properties();
        assertThat(p.get("listeners")).doesNotContain("KERBEROS");
        assertThat(p).doesNotContainKey("listener.name.kerberos.sasl.enabled.mechanisms");
    }

    @Test
    void aControllerOnlyNodeGetsNoKerberosListener() {
        Map<String, String> p = node(
                        NodeConfig.Role.CONTROLLER,
                        BrokerOptions.builder().kerberos(GSSAPI).build())
                .properties();
        assertThat(p.get("listeners")).isEqualTo("CONTROLLER://127.0.0.1:9094");
    }

    @Test
    void theEmbeddedBrokerRefusesAKerberosListener() {
        assertThatThrownBy(() -> KafkaTestCluster.embedded(
                        BrokerOptions.builder().kerberos(GSSAPI).build()))
                .hasStackTraceContaining("a Kerberos listener needs a forked broker");
    }
}
