package io.etl.kafka.common;

import io.etl.core.config.ConfigValidation;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import jakarta.validation.Valid;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The typed {@code security} section shared by the Kafka source and sink: protocol, TLS and SASL. It is
 * one of two ways to secure a client; the other is to put kafka-clients' own {@code security.protocol},
 * {@code ssl.*} and {@code sasl.*} properties in the passthrough map. Setting the same client property
 * both ways is a configuration problem.
 *
 * <pre>{@code
 * security:
 *   protocol: SASL_SSL
 *   tls: {ca_file: /etc/kafka/ca.pem}
 *   sasl: {mechanism: SCRAM-SHA-512, username: etl, password: "${KAFKA_PASSWORD}"}
 * }</pre>
 *
 * <p>SASL mechanisms: PLAIN, SCRAM-SHA-256/512, OAUTHBEARER, GSSAPI (Kerberos, with a keytab) and
 * AWS_MSK_IAM (needs {@value #AWS_MSK_IAM_ARTIFACT} on the class path). GSSAPI's {@code krb5_config_file}
 * sets the JVM-wide system property {@code java.security.krb5.conf} when the first client is built; a second,
 * different file in the same JVM is refused.
 *
 * <p>In code, build one with {@link #custom()} or {@link #from(KafkaSecurityConfig)}:
 * {@code KafkaSecurityConfig.custom().protocol(SecurityProtocol.SSL).tls(KafkaTlsConfig.trustingPem(ca)).build()}.
 * However it is built, an instance holds only settings that YAML validation accepts: its constructor checks them.
 *
 * <p>The record only holds the settings: the connectors turn it into client properties when they open (reading
 * certificate files and logging in to Kerberos then), and {@link #check} validates it without contacting anything.
 *
 * <p>{@link #toString()} never shows a password, key password or client secret.
 *
 * @param protocol PLAINTEXT (default), SSL, SASL_PLAINTEXT or SASL_SSL
 * @param tls      trust and client-certificate settings, for SSL and SASL_SSL
 * @param sasl     SASL mechanism and credentials, for SASL_PLAINTEXT and SASL_SSL
 */
public record KafkaSecurityConfig(
        SecurityProtocol protocol,
        @Valid KafkaTlsConfig tls,
        @Valid KafkaSaslConfig sasl) {

    /** Plain, unauthenticated connections unless said otherwise. */
    public static final SecurityProtocol DEFAULT_PROTOCOL = SecurityProtocol.PLAINTEXT;

    /** Maven coordinates of the jar AWS_MSK_IAM needs, named in the error when it is missing. */
    public static final String AWS_MSK_IAM_ARTIFACT = "software.amazon.msk:aws-msk-iam-auth";

    /**
     * The settings, a null protocol at its default. YAML binding calls this constructor; code reads better with
     * {@link #custom()}, {@link #plaintext()} or {@link #saslSsl}.
     *
     * @throws ConfigException when the settings break a rule of their own (TLS settings with a protocol without TLS,
     *                         SASL settings with one without SASL, a TLS or SASL block that breaks its rules),
     *                         naming each
     */
    public KafkaSecurityConfig(SecurityProtocol protocol, KafkaTlsConfig tls, KafkaSaslConfig sasl) {
        this.protocol = protocol == null ? DEFAULT_PROTOCOL : protocol;
        this.tls = tls;
        this.sasl = sasl;
        ConfigValidation.checkConstructed(this, c -> c.rules("", null));
    }

    /** No TLS, no SASL. */
    public static KafkaSecurityConfig plaintext() {
        return custom().protocol(SecurityProtocol.PLAINTEXT).build();
    }

    /** SASL_SSL with {@code sasl}, trusting as {@code tls} says (null: the JVM's default trust store). */
    public static KafkaSecurityConfig saslSsl(KafkaSaslConfig sasl, KafkaTlsConfig tls) {
        Builder b = custom().protocol(SecurityProtocol.SASL_SSL).sasl(sasl);
        return tls == null ? b.build() : b.tls(tls).build();
    }

    /**
     * Rules a record cannot express. {@code path} is the section's own path (e.g.
     * {@code sinks.eu.kafka.security}); {@code passthroughKeys} are the keys of the client passthrough
     * map, which may supply SASL settings instead of {@link #sasl()}.
     */
    public List<ConfigProblem> check(String path, Set<String> passthroughKeys) {
        return rules(path, Objects.requireNonNull(passthroughKeys, "passthroughKeys"));
    }

    /**
     * The section's rules at {@code path}; with {@code passthroughKeys} null, those of the section alone (a SASL
     * protocol without a {@code sasl} block is then fine: the client passthrough may supply it).
     */
    private List<ConfigProblem> rules(String path, Set<String> passthroughKeys) {
        List<ConfigProblem> problems = new ArrayList<>();
        if (sasl != null && !protocol.usesSasl()) {
            problems.add(new ConfigProblem(
                    path + ".sasl", "needs protocol SASL_SSL or SASL_PLAINTEXT (protocol is " + protocol + ")"));
        }
        if (passthroughKeys != null
                && sasl == null
                && protocol.usesSasl()
                && !passthroughKeys.contains("sasl.jaas.config")) {
            problems.add(new ConfigProblem(
                    path + ".sasl",
                    "is required with protocol " + protocol
                            + " (or set sasl.mechanism and sasl.jaas.config in the client passthrough)"));
        }
        if (tls != null && !protocol.usesTls()) {
            problems.add(
                    new ConfigProblem(path + ".tls", "needs protocol SSL or SASL_SSL (protocol is " + protocol + ")"));
        }
        if (tls != null) {
            problems.addAll(tls.check(path + ".tls"));
        }
        if (sasl != null) {
            problems.addAll(sasl.check(path + ".sasl"));
            if (sasl.mechanism() == SaslMechanism.AWS_MSK_IAM && protocol != SecurityProtocol.SASL_SSL) {
                problems.add(new ConfigProblem(
                        path + ".sasl.mechanism",
                        "AWS_MSK_IAM needs protocol SASL_SSL (protocol is " + protocol + ")"));
            }
        }
        return problems;
    }

    /**
     * The principal the brokers will see, when the section says it: {@code User:<username>} for PLAIN and
     * SCRAM, the OAuth client id for OAUTHBEARER, the Kerberos principal for GSSAPI, the role or profile for
     * AWS_MSK_IAM.
     */
    public Optional<String> principal() {
        if (sasl == null || sasl.mechanism() == null) {
            return Optional.empty();
        }
        return switch (sasl.mechanism()) {
            case OAUTHBEARER -> Optional.ofNullable(sasl.clientId()).map(id -> "client " + id);
            case GSSAPI -> Optional.ofNullable(sasl.principal()).map(p -> "Kerberos principal " + p);
            case AWS_MSK_IAM ->
                Optional.of(
                        sasl.awsRoleArn() != null
                                ? "role " + sasl.awsRoleArn()
                                : sasl.awsProfileName() != null
                                        ? "AWS profile " + sasl.awsProfileName()
                                        : "the default AWS credentials");
            default -> Optional.ofNullable(sasl.username()).map(u -> "User:" + u);
        };
    }

    /** A builder starting from the defaults: PLAINTEXT, no TLS or SASL block. */
    public static Builder custom() {
        return new Builder();
    }

    /** A builder starting from {@code base}. */
    public static Builder from(KafkaSecurityConfig base) {
        return new Builder(Objects.requireNonNull(base, "base"));
    }

    @Override
    public String toString() {
        return "KafkaSecurityConfig[protocol=" + protocol + ", tls=" + tls + ", sasl=" + sasl + "]";
    }

    /**
     * Builds a {@link KafkaSecurityConfig} in code; {@link #build()} checks that the blocks fit the protocol (each
     * block checked itself when it was built).
     */
    public static final class Builder {

        private SecurityProtocol protocol = DEFAULT_PROTOCOL;
        private KafkaTlsConfig tls;
        private KafkaSaslConfig sasl;

        private Builder() {}

        private Builder(KafkaSecurityConfig base) {
            protocol = base.protocol();
            tls = base.tls();
            sasl = base.sasl();
        }

        /** PLAINTEXT (default), SSL, SASL_PLAINTEXT or SASL_SSL. */
        public Builder protocol(SecurityProtocol value) {
            protocol = ConfigValidation.requireNonNull("protocol", value);
            return this;
        }

        /** Trust and client-certificate settings, for SSL and SASL_SSL; default none (the JVM's trust store). */
        public Builder tls(KafkaTlsConfig value) {
            tls = ConfigValidation.requireNonNull("tls", value);
            return this;
        }

        /**
         * SASL mechanism and credentials, for SASL_PLAINTEXT and SASL_SSL; default none (then the client
         * passthrough must set {@code sasl.mechanism} and {@code sasl.jaas.config}).
         */
        public Builder sasl(KafkaSaslConfig value) {
            sasl = ConfigValidation.requireNonNull("sasl", value);
            return this;
        }

        /** The settings; the constructor checks that the blocks fit the protocol. */
        public KafkaSecurityConfig build() {
            return new KafkaSecurityConfig(protocol, tls, sasl);
        }
    }
}
