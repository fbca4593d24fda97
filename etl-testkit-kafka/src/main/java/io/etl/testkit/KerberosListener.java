package io.etl.testkit;

import java.nio.file.Path;
import java.util.Objects;

/**
 * An extra {@code SASL_PLAINTEXT} listener with the {@code GSSAPI} mechanism on a forked test broker, for
 * Kerberos tests. The kit ships no KDC: the test runs one (for example Apache Kerby's {@code SimpleKdcServer}
 * in its own JVM), creates the broker's service principal and a client principal, and hands the broker its
 * keytab and the KDC's {@code krb5.conf}. The broker JVM gets {@code -Djava.security.krb5.conf} set to that
 * file; the client listener and the kit's own helpers ({@code createTopic}, {@code produce}, ...) stay as
 * they were, so a test needs no Kerberos for its setup.
 *
 * <pre>{@code
 * KerberosListener gssapi = new KerberosListener(krb5Conf, brokerKeytab, "kafka/localhost@EXAMPLE.COM", "kafka");
 * try (ForkedKafkaCluster kafka = KafkaTestCluster.forkedSingle(BrokerOptions.builder().kerberos(gssapi).build())) {
 *     String brokers = kafka.kerberosBootstrapServers();   // localhost:<port>
 * }
 * }</pre>
 *
 * <p>The listener is advertised as {@code localhost}, so a client asks the KDC for a ticket to
 * {@code <serviceName>/localhost@REALM}: name the broker's principal that way.
 *
 * @param krb5Config  the KDC's Kerberos configuration file
 * @param keytab      keytab holding the broker principal's keys
 * @param principal   the broker's service principal, e.g. {@code kafka/localhost@EXAMPLE.COM}
 * @param serviceName the service name clients use ({@code sasl.kerberos.service.name}), e.g. {@code kafka}
 */
public record KerberosListener(Path krb5Config, Path keytab, String principal, String serviceName) {

    /** The host the listener is advertised as, and the instance part of the broker's principal. */
    public static final String ADVERTISED_HOST = "localhost";

    /** Validates. */
    public KerberosListener {
        Objects.requireNonNull(krb5Config, "krb5Config");
        Objects.requireNonNull(keytab, "keytab");
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(serviceName, "serviceName");
    }

    /** @return the broker's {@code sasl.jaas.config} for this listener */
    public String brokerJaasConfig() {
        return "com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true storeKey=true keyTab=\""
                + keytab.toAbsolutePath().toString().replace("\\", "\\\\") + "\" principal=\"" + principal + "\";";
    }
}
