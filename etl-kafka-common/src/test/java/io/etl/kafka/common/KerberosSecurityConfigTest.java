package io.etl.kafka.common;

import static io.etl.kafka.common.SaslSections.sasl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.core.internal.config.AsBound;
import io.etl.kafka.common.internal.KerberosSupport;
import io.etl.kafka.common.internal.SecurityProperties;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.security.JaasContext;
import org.apache.kerby.kerberos.kerb.server.SimpleKdcServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GSSAPI in the typed section: checks, the mapping onto kafka-clients, the JVM-wide krb5 configuration, and
 * the login made before any client, against an in-JVM KDC (Apache Kerby).
 */
class KerberosSecurityConfigTest {

    private static final String PATH = "sinks.eu.kafka.security";

    @TempDir
    static Path kdcDir;

    private static SimpleKdcServer kdc;
    private static Path keytab;
    private static Path krb5;

    @TempDir
    Path dir;

    private String savedKrb5;

    /** A real KDC, so that the one login the section makes before any client can succeed. */
    @BeforeAll
    static void startKdc() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = socket.getLocalPort();
        }
        String before = System.getProperty(KerberosSupport.KRB5_CONF_PROPERTY);
        kdc = new SimpleKdcServer();
        kdc.setWorkDir(Files.createDirectories(kdcDir.resolve("kdc")).toFile());
        kdc.setKdcRealm("EXAMPLE.COM");
        kdc.setKdcHost("127.0.0.1");
        kdc.setAllowUdp(false);
        kdc.setKdcTcpPort(port);
        kdc.init();
        kdc.start();
        restore(before); // Kerby sets the property to a file of its own
        keytab = kdcDir.resolve("etl.keytab");
        kdc.createPrincipal("etl@EXAMPLE.COM");
        kdc.exportPrincipal("etl@EXAMPLE.COM", keytab.toFile());
        krb5 = Files.writeString(kdcDir.resolve("krb5.conf"), """
                [libdefaults]
                  default_realm = EXAMPLE.COM
                  udp_preference_limit = 1
                [realms]
                  EXAMPLE.COM = {
                    kdc = 127.0.0.1:%d
                  }
                """.formatted(port));
    }

    @AfterAll
    static void stopKdc() throws Exception {
        if (kdc != null) {
            kdc.stop();
        }
    }

    @BeforeEach
    void clearProperty() {
        savedKrb5 = System.getProperty(KerberosSupport.KRB5_CONF_PROPERTY);
        System.clearProperty(KerberosSupport.KRB5_CONF_PROPERTY);
    }

    @AfterEach
    void restoreProperty() {
        restore(savedKrb5);
    }

    private static void restore(String value) {
        if (value == null) {
            System.clearProperty(KerberosSupport.KRB5_CONF_PROPERTY);
        } else {
            System.setProperty(KerberosSupport.KRB5_CONF_PROPERTY, value);
        }
    }

    private KafkaSecurityConfig gssapi(String principal, String krb5File) {
        return KafkaSecurityConfig.custom()
                .protocol(SecurityProtocol.SASL_PLAINTEXT)
                .sasl(KafkaSaslConfig.gssapi(principal, keytab.toString(), null, krb5File))
                .build();
    }

    /** {@link #gssapi} as a file may hold it: checked only by {@link KafkaSecurityConfig#check}, as the loader does. */
    private KafkaSecurityConfig boundGssapi(String principal, String krb5File) {
        return AsBound.record(() -> new KafkaSecurityConfig(
                SecurityProtocol.SASL_PLAINTEXT,
                null,
                new KafkaSaslConfig(
                        SaslMechanism.GSSAPI,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        principal,
                        keytab.toString(),
                        null,
                        krb5File,
                        null,
                        null,
                        null,
                        null)));
    }

    private static List<String> problems(KafkaSecurityConfig config) {
        return config.check(PATH, Set.of()).stream()
                .map(ConfigProblem::toString)
                .toList();
    }

    @Test
    void gssapiMapsOntoTheKrb5LoginModuleAndTheServiceName() {
        KafkaSecurityConfig config = gssapi("etl@EXAMPLE.COM", krb5.toString());
        assertThat(problems(config)).isEmpty();

        Map<String, Object> props = SecurityProperties.clientProperties(config, PATH);

        assertThat(props)
                .containsEntry("security.protocol", "SASL_PLAINTEXT")
                .containsEntry("sasl.mechanism", "GSSAPI")
                .containsEntry("sasl.kerberos.service.name", "kafka");
        String jaas = (String) props.get("sasl.jaas.config");
        assertThat(jaas)
                .startsWith("com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true storeKey=true");
        var entries = JaasContext.loadClientContext(Map.of("sasl.jaas.config", new Password(jaas)))
                .configurationEntries();
        assertThat(entries).singleElement().satisfies(e -> {
            assertThat(e.getLoginModuleName()).isEqualTo("com.sun.security.auth.module.Krb5LoginModule");
            assertThat(Map.<String, Object>copyOf(e.getOptions()))
                    .containsEntry("useKeyTab", "true")
                    .containsEntry("storeKey", "true")
                    .containsEntry("keyTab", keytab.toString())
                    .containsEntry("principal", "etl@EXAMPLE.COM");
        });
        assertThat(System.getProperty("java.security.krb5.conf"))
                .isEqualTo(krb5.toAbsolutePath().toString());
        assertThat(SecurityProperties.clientPropertyKeys(config)).containsExactlyInAnyOrderElementsOf(props.keySet());
        assertThat(config.principal()).contains("Kerberos principal etl@EXAMPLE.COM");
    }

    @Test
    void aDifferentServiceNameIsPassedOnAndWithoutAFileTheJvmsConfigurationStays() {
        System.setProperty(KerberosSupport.KRB5_CONF_PROPERTY, krb5.toString());
        KafkaSecurityConfig config = KafkaSecurityConfig.saslSsl(
                KafkaSaslConfig.gssapi("etl@EXAMPLE.COM", keytab.toString(), "kafka-prod", null), null);
        assertThat(SecurityProperties.clientProperties(config, PATH))
                .containsEntry("sasl.kerberos.service.name", "kafka-prod");
        assertThat(System.getProperty("java.security.krb5.conf")).isEqualTo(krb5.toString());
    }

    @Test
    void gssapiNeedsAPrincipalAndAReadableKeytabAndTakesNoPassword() {
        KafkaSecurityConfig config = AsBound.record(() -> new KafkaSecurityConfig(
                SecurityProtocol.SASL_PLAINTEXT,
                null,
                sasl(
                        SaslMechanism.GSSAPI,
                        Map.of(
                                "password", "pw",
                                "keytab_file", "/nope/etl.keytab",
                                "krb5_config_file", "/nope/krb5.conf",
                                "aws_role_arn", "arn:aws:iam::1:role/x"))));
        assertThat(problems(config))
                .containsExactly(
                        PATH + ".sasl.password: is not used with mechanism GSSAPI",
                        PATH + ".sasl.principal: is required with mechanism GSSAPI",
                        PATH + ".sasl.keytab_file: cannot read file /nope/etl.keytab",
                        PATH + ".sasl.krb5_config_file: cannot read file /nope/krb5.conf",
                        PATH + ".sasl.aws_role_arn: is not used with mechanism GSSAPI");
    }

    @Test
    void aPrincipalTheKeytabDoesNotHoldFailsBeforeAnyLoginNamingBoth() {
        ConfigException e = catchThrowableOfType(
                ConfigException.class,
                () -> SecurityProperties.clientProperties(gssapi("intruder@EXAMPLE.COM", krb5.toString()), PATH));
        assertThat(e.problems())
                .singleElement()
                .hasToString(PATH + ".sasl.principal: keytab " + keytab
                        + " holds no key for principal intruder@EXAMPLE.COM (check the principal's spelling and realm against"
                        + " the keytab, e.g. with klist -k)");
    }

    @Test
    void aPrincipalTheKdcDoesNotKnowFailsAtTheFirstLoginNamingIt() throws Exception {
        Path ghostKeytab = kdcDir.resolve("ghost.keytab");
        kdc.createPrincipal("ghost@EXAMPLE.COM");
        kdc.exportPrincipal("ghost@EXAMPLE.COM", ghostKeytab.toFile());
        kdc.deletePrincipal("ghost@EXAMPLE.COM");
        KafkaSecurityConfig config = KafkaSecurityConfig.custom()
                .protocol(SecurityProtocol.SASL_PLAINTEXT)
                .sasl(KafkaSaslConfig.gssapi("ghost@EXAMPLE.COM", ghostKeytab.toString(), null, krb5.toString()))
                .build();
        assertThat(problems(config)).as("nothing a load-time check can see").isEmpty();

        ConfigException e =
                catchThrowableOfType(ConfigException.class, () -> SecurityProperties.clientProperties(config, PATH));

        assertThat(e.problems()).singleElement().satisfies(p -> {
            assertThat(p.path()).isEqualTo(PATH + ".sasl.principal");
            assertThat(p.message())
                    .startsWith("Kerberos login as ghost@EXAMPLE.COM with keytab " + ghostKeytab + " failed: ")
                    .contains("Client not found in Kerberos database");
        });
    }

    @Test
    void twoDifferentKrb5ConfigurationsInOneJvmAreRefused() throws Exception {
        Path other = Files.writeString(dir.resolve("other-krb5.conf"), "[libdefaults]\n default_realm = OTHER.ORG\n");
        SecurityProperties.clientProperties(gssapi("etl@EXAMPLE.COM", krb5.toString()), PATH);
        SecurityProperties.clientProperties(gssapi("etl@EXAMPLE.COM", krb5.toString()), "source.in.kafka.security");

        assertThatThrownBy(() -> gssapi("etl@EXAMPLE.COM", other.toString()))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("invalid configuration: krb5_config_file: the Kerberos configuration is"
                        + " JVM-wide (java.security.krb5.conf) and this JVM already uses " + krb5.toAbsolutePath());
        KafkaSecurityConfig second = boundGssapi("etl@EXAMPLE.COM", other.toString());
        assertThat(problems(second))
                .singleElement()
                .asString()
                .startsWith(PATH + ".sasl.krb5_config_file: the Kerberos"
                        + " configuration is JVM-wide (java.security.krb5.conf) and this JVM already uses "
                        + krb5.toAbsolutePath());
        ConfigException e =
                catchThrowableOfType(ConfigException.class, () -> SecurityProperties.clientProperties(second, PATH));
        assertThat(e.problems()).singleElement().satisfies(p -> {
            assertThat(p.path()).isEqualTo(PATH + ".sasl.krb5_config_file");
            assertThat(p.message()).contains("one JVM can use one krb5 configuration");
        });
        assertThat(System.getProperty("java.security.krb5.conf"))
                .isEqualTo(krb5.toAbsolutePath().toString());
    }

    @Test
    void toStringShowsKerberosSettingsWithoutSecrets() {
        assertThat(gssapi("etl@EXAMPLE.COM", null).toString())
                .contains("principal=etl@EXAMPLE.COM", "serviceName=kafka", "keytabFile=" + keytab);
    }
}
