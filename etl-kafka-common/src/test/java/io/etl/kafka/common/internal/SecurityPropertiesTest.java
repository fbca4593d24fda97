package io.etl.kafka.common.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.error.ConfigException;
import io.etl.core.internal.config.AsBound;
import io.etl.kafka.common.KafkaSaslConfig;
import io.etl.kafka.common.KafkaSecurityConfig;
import io.etl.kafka.common.KafkaTlsConfig;
import io.etl.kafka.common.SaslMechanism;
import io.etl.kafka.common.SecurityProtocol;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The translation of the typed security section: its key set and its properties come from one code path. */
class SecurityPropertiesTest {

    private static final String PATH = "sinks.eu.kafka.security";

    @TempDir
    Path dir;

    /**
     * Every mix of TLS settings: each of the eight files and passwords set or not, host names checked or not. Most
     * break a rule; they are built as a file may hold them (the loader reports them; the translation must still
     * list exactly the keys it builds).
     */
    private static List<KafkaTlsConfig> everyTls(String cert, String key) {
        List<KafkaTlsConfig> all = new ArrayList<>();
        all.add(null);
        for (int mask = 0; mask < 1 << 9; mask++) {
            int m = mask;
            all.add(AsBound.record(() -> new KafkaTlsConfig(
                    (m & 1) != 0 ? "/etc/kafka/ca.pem" : null,
                    (m & 2) != 0 ? cert : null,
                    (m & 4) != 0 ? key : null,
                    (m & 8) != 0 ? "key-secret" : null,
                    (m & 16) != 0 ? "/etc/kafka/trust.jks" : null,
                    (m & 32) != 0 ? "trust-secret" : null,
                    (m & 64) != 0 ? "/etc/kafka/client.p12" : null,
                    (m & 128) != 0 ? "store-secret" : null,
                    (m & 256) != 0)));
        }
        return all;
    }

    /** SASL sections whose properties build without a KDC or an optional jar. */
    private static List<KafkaSaslConfig> saslWithoutSideEffects() {
        return Arrays.asList(
                null,
                withoutMechanism(),
                KafkaSaslConfig.plain("etl", "pw"),
                KafkaSaslConfig.scramSha256("etl", "pw"),
                AsBound.record(() -> new KafkaSaslConfig(
                        SaslMechanism.SCRAM_SHA_512,
                        "etl",
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null)),
                oauth("kafka"),
                oauth(null));
    }

    /** A section that names no mechanism (which the check refuses). */
    private static KafkaSaslConfig withoutMechanism() {
        return AsBound.record(() -> new KafkaSaslConfig(
                null, "u", "p", null, null, null, null, null, null, null, null, null, null, null, null));
    }

    /** OAUTHBEARER with client credentials and {@code scope} (null for none). */
    private static KafkaSaslConfig oauth(String scope) {
        return AsBound.record(() -> new KafkaSaslConfig(
                SaslMechanism.OAUTHBEARER,
                null,
                null,
                "https://idp/token",
                "etl",
                "s",
                scope,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null));
    }

    @Test
    void theListedKeysAreExactlyTheBuiltOnesForEveryMixOfSettings() throws Exception {
        String cert = Files.writeString(dir.resolve("client.pem"), "CERT").toString();
        String key = Files.writeString(dir.resolve("client.key"), "KEY").toString();
        List<String> drifts = new ArrayList<>();
        int mixes = 0;

        for (SecurityProtocol protocol : SecurityProtocol.values()) {
            for (KafkaTlsConfig tls : everyTls(cert, key)) {
                for (KafkaSaslConfig sasl : saslWithoutSideEffects()) {
                    KafkaSecurityConfig security = AsBound.record(() -> new KafkaSecurityConfig(protocol, tls, sasl));
                    var listed = SecurityProperties.clientPropertyKeys(security);
                    var built = new LinkedHashSet<>(
                            SecurityProperties.clientProperties(security, PATH).keySet());
                    mixes++;
                    if (!listed.equals(built)) {
                        drifts.add(security + ": listed " + listed + ", built " + built);
                    }
                }
            }
        }

        assertThat(mixes).isEqualTo(4 * 513 * 7);
        assertThat(drifts).isEmpty();
    }

    @Test
    void listingTheKeysReadsNoFileAndDoesNothingJvmWide() {
        String krb5Before = System.getProperty(KerberosSupport.KRB5_CONF_PROPERTY);
        // files that do not exist and a jar that is missing: sections a file may hold, which the loader refuses
        KafkaSecurityConfig kerberos = AsBound.record(() -> new KafkaSecurityConfig(
                SecurityProtocol.SASL_SSL,
                new KafkaTlsConfig(null, "/nope/client.pem", "/nope/client.key", null, null, null, null, null, null),
                new KafkaSaslConfig(
                        SaslMechanism.GSSAPI,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        "etl@EXAMPLE.COM",
                        "/nope/etl.keytab",
                        null,
                        "/nope/krb5.conf",
                        null,
                        null,
                        null,
                        null)));
        KafkaSecurityConfig iam = AsBound.record(() -> new KafkaSecurityConfig(
                SecurityProtocol.SASL_SSL,
                null,
                new KafkaSaslConfig(
                        SaslMechanism.AWS_MSK_IAM,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null)));

        assertThat(SecurityProperties.clientPropertyKeys(kerberos))
                .containsExactly(
                        "security.protocol",
                        "ssl.keystore.type",
                        "ssl.keystore.certificate.chain",
                        "ssl.keystore.key",
                        "sasl.mechanism",
                        "sasl.kerberos.service.name",
                        "sasl.jaas.config");
        // this module's test class path lacks the AWS_MSK_IAM jar, which only building needs
        assertThat(SecurityProperties.clientPropertyKeys(iam))
                .containsExactly(
                        "security.protocol",
                        "sasl.mechanism",
                        "sasl.client.callback.handler.class",
                        "sasl.jaas.config");
        assertThat(System.getProperty(KerberosSupport.KRB5_CONF_PROPERTY)).isEqualTo(krb5Before);

        assertThatThrownBy(() -> SecurityProperties.clientProperties(kerberos, PATH))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(PATH + ".tls.cert_file: cannot read file /nope/client.pem");
        assertThatThrownBy(() -> SecurityProperties.clientProperties(iam, PATH))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(PATH + ".sasl.mechanism: AWS_MSK_IAM needs");
    }

    @Test
    void aPemFileIsReadOncePerVersionAndAgainWhenReplaced() throws Exception {
        Path cert = Files.writeString(dir.resolve("rotating.pem"), "CERT-1");
        Path key = Files.writeString(dir.resolve("rotating.key"), "KEY");
        KafkaSecurityConfig mtls = KafkaSecurityConfig.custom()
                .protocol(SecurityProtocol.SSL)
                .tls(KafkaTlsConfig.custom()
                        .certFile(cert.toString())
                        .keyFile(key.toString())
                        .build())
                .build();
        assertThat(chainOf(mtls)).isEqualTo("CERT-1");

        FileTime modified = Files.getLastModifiedTime(cert);
        Files.writeString(cert, "CERT-2");
        Files.setLastModifiedTime(cert, modified);
        assertThat(chainOf(mtls))
                .as("same size and time: the same version, not read again")
                .isEqualTo("CERT-1");

        Files.writeString(cert, "CERT-3, renewed");
        assertThat(chainOf(mtls)).as("a new version is read").isEqualTo("CERT-3, renewed");
    }

    private static String chainOf(KafkaSecurityConfig security) {
        return Objects.toString(
                SecurityProperties.clientProperties(security, PATH).get("ssl.keystore.certificate.chain"));
    }
}
