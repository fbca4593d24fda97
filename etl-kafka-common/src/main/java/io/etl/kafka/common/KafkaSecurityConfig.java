package io.etl.kafka.common;

import io.etl.core.error.ConfigProblem;
import io.etl.kafka.common.internal.AwsMskIam;
import io.etl.kafka.common.internal.KerberosSupport;
import jakarta.validation.Valid;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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

    public KafkaSecurityConfig {
        protocol = protocol == null ? DEFAULT_PROTOCOL : protocol;
    }

    /** No TLS, no SASL. */
    public static KafkaSecurityConfig plaintext() {
        return new KafkaSecurityConfig(SecurityProtocol.PLAINTEXT, null, null);
    }

    /** SASL_SSL trusting a PEM CA file. */
    public static KafkaSecurityConfig saslSsl(KafkaSaslConfig sasl, KafkaTlsConfig tls) {
        return new KafkaSecurityConfig(SecurityProtocol.SASL_SSL, tls, sasl);
    }

    /**
     * Rules a record cannot express. {@code path} is the section's own path (e.g.
     * {@code sinks.eu.kafka.security}); {@code passthroughKeys} are the keys of the client passthrough
     * map, which may supply SASL settings instead of {@link #sasl()}.
     */
    public List<ConfigProblem> check(String path, Set<String> passthroughKeys) {
        List<ConfigProblem> problems = new ArrayList<>();
        boolean saslByPassthrough = passthroughKeys.contains("sasl.jaas.config");
        if (sasl != null && !protocol.usesSasl()) {
            problems.add(new ConfigProblem(
                    path + ".sasl", "needs protocol SASL_SSL or SASL_PLAINTEXT (protocol is " + protocol + ")"));
        }
        if (sasl == null && protocol.usesSasl() && !saslByPassthrough) {
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
            checkTls(path + ".tls", problems);
        }
        if (sasl != null) {
            checkSasl(path + ".sasl", problems);
        }
        return problems;
    }

    private void checkTls(String path, List<ConfigProblem> problems) {
        if (tls.caFile() != null && tls.truststoreFile() != null) {
            problems.add(new ConfigProblem(path + ".ca_file", "set either ca_file (PEM) or truststore_file, not both"));
        }
        if ((tls.certFile() == null) != (tls.keyFile() == null)) {
            problems.add(new ConfigProblem(
                    path + (tls.certFile() == null ? ".cert_file" : ".key_file"),
                    "mutual TLS needs both cert_file and key_file"));
        }
        if (tls.certFile() != null && tls.keystoreFile() != null) {
            problems.add(new ConfigProblem(
                    path + ".keystore_file", "set either cert_file/key_file (PEM) or keystore_file, not both"));
        }
        if (tls.truststoreFile() != null && tls.truststorePassword() == null) {
            problems.add(new ConfigProblem(path + ".truststore_password", "is required with truststore_file"));
        }
        if (tls.truststorePassword() != null && tls.truststoreFile() == null) {
            problems.add(new ConfigProblem(path + ".truststore_password", "is only used with truststore_file"));
        }
        if (tls.keystoreFile() != null && tls.keystorePassword() == null) {
            problems.add(new ConfigProblem(path + ".keystore_password", "is required with keystore_file"));
        }
        if (tls.keystorePassword() != null && tls.keystoreFile() == null) {
            problems.add(new ConfigProblem(path + ".keystore_password", "is only used with keystore_file"));
        }
        if (tls.keyPassword() != null && tls.keyFile() == null && tls.keystoreFile() == null) {
            problems.add(new ConfigProblem(path + ".key_password", "is only used with key_file or keystore_file"));
        }
        for (String[] file : new String[][] {
            {"ca_file", tls.caFile()},
            {"cert_file", tls.certFile()},
            {"key_file", tls.keyFile()},
            {"truststore_file", tls.truststoreFile()},
            {"keystore_file", tls.keystoreFile()}
        }) {
            if (file[1] != null && !Files.isReadable(Path.of(file[1]))) {
                problems.add(new ConfigProblem(path + "." + file[0], "cannot read file " + file[1]));
            }
        }
    }

    private void checkSasl(String path, List<ConfigProblem> problems) {
        if (sasl.mechanism() == null) {
            problems.add(new ConfigProblem(
                    path + ".mechanism",
                    "is required (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER, GSSAPI or AWS_MSK_IAM)"));
            return;
        }
        SaslMechanism m = sasl.mechanism();
        boolean password =
                m == SaslMechanism.PLAIN || m == SaslMechanism.SCRAM_SHA_256 || m == SaslMechanism.SCRAM_SHA_512;
        boolean oauth = m == SaslMechanism.OAUTHBEARER;
        boolean kerberos = m == SaslMechanism.GSSAPI;
        boolean iam = m == SaslMechanism.AWS_MSK_IAM;
        if (password) {
            requireSet(path, "username", sasl.username(), problems);
            requireSet(path, "password", sasl.password(), problems);
        } else {
            rejectSet(path, "username", sasl.username(), problems);
            rejectSet(path, "password", sasl.password(), problems);
        }
        if (oauth) {
            requireSet(path, "token_endpoint_url", sasl.tokenEndpointUrl(), problems);
            endpointUrl(path + ".token_endpoint_url", sasl.tokenEndpointUrl(), problems);
            requireSet(path, "client_id", sasl.clientId(), problems);
            requireSet(path, "client_secret", sasl.clientSecret(), problems);
        } else {
            rejectSet(path, "token_endpoint_url", sasl.tokenEndpointUrl(), problems);
            rejectSet(path, "client_id", sasl.clientId(), problems);
            rejectSet(path, "client_secret", sasl.clientSecret(), problems);
            rejectSet(path, "scope", sasl.scope(), problems);
        }
        if (kerberos) {
            requireSet(path, "principal", sasl.principal(), problems);
            requireSet(path, "keytab_file", sasl.keytabFile(), problems);
            requireSet(path, "service_name", sasl.serviceName(), problems);
            readable(path + ".keytab_file", sasl.keytabFile(), problems);
            readable(path + ".krb5_config_file", sasl.krb5ConfigFile(), problems);
            if (sasl.krb5ConfigFile() != null) {
                KerberosSupport.conflict(sasl.krb5ConfigFile())
                        .ifPresent(why -> problems.add(new ConfigProblem(path + ".krb5_config_file", why)));
            }
        } else {
            rejectSet(path, "principal", sasl.principal(), problems);
            rejectSet(path, "keytab_file", sasl.keytabFile(), problems);
            rejectSet(path, "service_name", sasl.serviceName(), problems);
            rejectSet(path, "krb5_config_file", sasl.krb5ConfigFile(), problems);
        }
        if (iam) {
            if (protocol != SecurityProtocol.SASL_SSL) {
                problems.add(new ConfigProblem(
                        path + ".mechanism", "AWS_MSK_IAM needs protocol SASL_SSL (protocol is " + protocol + ")"));
            }
            if (!AwsMskIam.available()) {
                problems.add(new ConfigProblem(path + ".mechanism", AwsMskIam.missing()));
            }
            if (sasl.awsRoleArn() == null) {
                rejectSet(
                        path,
                        "aws_role_session_name",
                        sasl.awsRoleSessionName(),
                        "is only used with aws_role_arn",
                        problems);
                rejectSet(path, "aws_sts_region", sasl.awsStsRegion(), "is only used with aws_role_arn", problems);
            }
        } else {
            rejectSet(path, "aws_role_arn", sasl.awsRoleArn(), problems);
            rejectSet(path, "aws_role_session_name", sasl.awsRoleSessionName(), problems);
            rejectSet(path, "aws_sts_region", sasl.awsStsRegion(), problems);
            rejectSet(path, "aws_profile_name", sasl.awsProfileName(), problems);
        }
    }

    /**
     * A token endpoint the OAuth login can call: an absolute {@code https}, {@code http} or {@code file} URL, with a
     * host for the first two. The value is not echoed: a URL may carry credentials.
     */
    private static void endpointUrl(String path, String url, List<ConfigProblem> problems) {
        if (url == null || url.isBlank()) {
            return;
        }
        String problem;
        try {
            URI uri = new URI(url.strip());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("https") && !scheme.equals("http") && !scheme.equals("file")) {
                problem = "expected an https (or http, or file) URL such as https://idp.example.com/oauth2/token";
            } else if (!scheme.equals("file")
                    && (uri.getHost() == null || uri.getHost().isEmpty())) {
                problem = "expected an " + scheme + " URL with a host, such as " + scheme
                        + "://idp.example.com/oauth2/token";
            } else {
                return;
            }
        } catch (URISyntaxException e) {
            problem = "is not a valid URL (" + e.getReason() + " at index " + e.getIndex() + ")";
        }
        problems.add(new ConfigProblem(path, problem));
    }

    private static void readable(String path, String file, List<ConfigProblem> problems) {
        if (file != null && !file.isBlank() && !Files.isReadable(Path.of(file))) {
            problems.add(new ConfigProblem(path, "cannot read file " + file));
        }
    }

    private void rejectSet(String path, String key, String value, String why, List<ConfigProblem> problems) {
        if (value != null) {
            problems.add(new ConfigProblem(path + "." + key, why));
        }
    }

    private void requireSet(String path, String key, String value, List<ConfigProblem> problems) {
        if (value == null || value.isBlank()) {
            problems.add(new ConfigProblem(path + "." + key, "is required with mechanism " + sasl.mechanism()));
        }
    }

    private void rejectSet(String path, String key, String value, List<ConfigProblem> problems) {
        if (value != null) {
            problems.add(new ConfigProblem(path + "." + key, "is not used with mechanism " + sasl.mechanism()));
        }
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

    @Override
    public String toString() {
        return "KafkaSecurityConfig[protocol=" + protocol + ", tls=" + tls + ", sasl=" + sasl + "]";
    }
}
