package io.etl.kafka.common;

import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import jakarta.validation.Valid;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 * <p>{@link #toString()} never shows a password, key password or client secret.
 *
 * @param protocol PLAINTEXT (default), SSL, SASL_PLAINTEXT or SASL_SSL
 * @param tls      trust and client-certificate settings, for SSL and SASL_SSL
 * @param sasl     SASL mechanism and credentials, for SASL_PLAINTEXT and SASL_SSL
 */
public record KafkaSecurityConfig(SecurityProtocol protocol, @Valid KafkaTlsConfig tls, @Valid KafkaSaslConfig sasl) {

    /** Plain, unauthenticated connections unless said otherwise. */
    public static final SecurityProtocol DEFAULT_PROTOCOL = SecurityProtocol.PLAINTEXT;

    private static final String OAUTH_CALLBACK_HANDLER =
            "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler";

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
            problems.add(new ConfigProblem(path + ".sasl", "needs protocol SASL_SSL or SASL_PLAINTEXT (protocol is "
                    + protocol + ")"));
        }
        if (sasl == null && protocol.usesSasl() && !saslByPassthrough) {
            problems.add(new ConfigProblem(path + ".sasl", "is required with protocol " + protocol
                    + " (or set sasl.mechanism and sasl.jaas.config in the client passthrough)"));
        }
        if (tls != null && !protocol.usesTls()) {
            problems.add(new ConfigProblem(path + ".tls", "needs protocol SSL or SASL_SSL (protocol is " + protocol + ")"));
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
            problems.add(new ConfigProblem(path + (tls.certFile() == null ? ".cert_file" : ".key_file"),
                    "mutual TLS needs both cert_file and key_file"));
        }
        if (tls.certFile() != null && tls.keystoreFile() != null) {
            problems.add(new ConfigProblem(path + ".keystore_file",
                    "set either cert_file/key_file (PEM) or keystore_file, not both"));
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
        for (String[] file : new String[][] {{"ca_file", tls.caFile()}, {"cert_file", tls.certFile()},
                {"key_file", tls.keyFile()}, {"truststore_file", tls.truststoreFile()},
                {"keystore_file", tls.keystoreFile()}}) {
            if (file[1] != null && !Files.isReadable(Path.of(file[1]))) {
                problems.add(new ConfigProblem(path + "." + file[0], "cannot read file " + file[1]));
            }
        }
    }

    private void checkSasl(String path, List<ConfigProblem> problems) {
        if (sasl.mechanism() == null) {
            problems.add(new ConfigProblem(path + ".mechanism",
                    "is required (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER)"));
            return;
        }
        if (sasl.mechanism() == SaslMechanism.OAUTHBEARER) {
            requireSet(path, "token_endpoint_url", sasl.tokenEndpointUrl(), problems);
            requireSet(path, "client_id", sasl.clientId(), problems);
            requireSet(path, "client_secret", sasl.clientSecret(), problems);
            rejectSet(path, "username", sasl.username(), problems);
            rejectSet(path, "password", sasl.password(), problems);
        } else {
            requireSet(path, "username", sasl.username(), problems);
            requireSet(path, "password", sasl.password(), problems);
            rejectSet(path, "token_endpoint_url", sasl.tokenEndpointUrl(), problems);
            rejectSet(path, "client_id", sasl.clientId(), problems);
            rejectSet(path, "client_secret", sasl.clientSecret(), problems);
            rejectSet(path, "scope", sasl.scope(), problems);
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
     * The kafka-clients property names {@link #toClientProperties} sets, without reading any file: used to
     * find a property set both here and in the passthrough map.
     */
    public Set<String> clientPropertyKeys() {
        Set<String> keys = new LinkedHashSet<>();
        keys.add("security.protocol");
        if (tls != null) {
            if (tls.caFile() != null || tls.truststoreFile() != null) {
                keys.add("ssl.truststore.type");
                keys.add("ssl.truststore.location");
            }
            if (tls.truststoreFile() != null) {
                keys.add("ssl.truststore.password");
            }
            if (tls.certFile() != null) {
                keys.add("ssl.keystore.type");
                keys.add("ssl.keystore.certificate.chain");
                keys.add("ssl.keystore.key");
            }
            if (tls.keystoreFile() != null) {
                keys.add("ssl.keystore.type");
                keys.add("ssl.keystore.location");
                keys.add("ssl.keystore.password");
                keys.add("ssl.key.password");
            }
            if (tls.keyPassword() != null) {
                keys.add("ssl.key.password");
            }
            if (!tls.endpointIdentification()) {
                keys.add("ssl.endpoint.identification.algorithm");
            }
        }
        if (sasl != null) {
            keys.add("sasl.mechanism");
            keys.add("sasl.jaas.config");
            if (sasl.mechanism() == SaslMechanism.OAUTHBEARER) {
                keys.add("sasl.login.callback.handler.class");
                keys.add("sasl.oauthbearer.token.endpoint.url");
            }
        }
        return keys;
    }

    /** {@link #toClientProperties(String)} with problems reported under {@code security}. */
    public Map<String, Object> toClientProperties() {
        return toClientProperties("security");
    }

    /**
     * The kafka-clients properties for this section. Reads PEM certificate and key files when mutual TLS
     * uses them.
     *
     * @param path the section's path, for problems
     * @throws ConfigException when a certificate or key file cannot be read
     */
    public Map<String, Object> toClientProperties(String path) {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("security.protocol", protocol.name());
        if (tls != null) {
            if (tls.caFile() != null) {
                props.put("ssl.truststore.type", "PEM");
                props.put("ssl.truststore.location", tls.caFile());
            } else if (tls.truststoreFile() != null) {
                props.put("ssl.truststore.type", storeType(tls.truststoreFile()));
                props.put("ssl.truststore.location", tls.truststoreFile());
                props.put("ssl.truststore.password", tls.truststorePassword());
            }
            if (tls.certFile() != null && tls.keyFile() != null) {
                props.put("ssl.keystore.type", "PEM");
                props.put("ssl.keystore.certificate.chain", read(path + ".tls.cert_file", tls.certFile()));
                props.put("ssl.keystore.key", read(path + ".tls.key_file", tls.keyFile()));
                if (tls.keyPassword() != null) {
                    props.put("ssl.key.password", tls.keyPassword());
                }
            } else if (tls.keystoreFile() != null) {
                props.put("ssl.keystore.type", storeType(tls.keystoreFile()));
                props.put("ssl.keystore.location", tls.keystoreFile());
                props.put("ssl.keystore.password", tls.keystorePassword());
                props.put("ssl.key.password", tls.keyPassword() != null ? tls.keyPassword() : tls.keystorePassword());
            }
            if (!tls.endpointIdentification()) {
                props.put("ssl.endpoint.identification.algorithm", "");
            }
        }
        if (sasl != null && sasl.mechanism() != null) {
            props.put("sasl.mechanism", sasl.mechanism().kafkaName());
            StringBuilder jaas = new StringBuilder(sasl.mechanism().loginModule()).append(" required");
            if (sasl.mechanism() == SaslMechanism.OAUTHBEARER) {
                props.put("sasl.login.callback.handler.class", OAUTH_CALLBACK_HANDLER);
                props.put("sasl.oauthbearer.token.endpoint.url", sasl.tokenEndpointUrl());
                jaasOption(jaas, "clientId", sasl.clientId());
                jaasOption(jaas, "clientSecret", sasl.clientSecret());
                if (sasl.scope() != null) {
                    jaasOption(jaas, "scope", sasl.scope());
                }
            } else {
                jaasOption(jaas, "username", sasl.username());
                jaasOption(jaas, "password", sasl.password());
            }
            props.put("sasl.jaas.config", jaas.append(';').toString());
        }
        return props;
    }

    /**
     * The principal the brokers will see, when the section says it: {@code User:<username>} for PLAIN and
     * SCRAM, the OAuth client id for OAUTHBEARER.
     */
    public Optional<String> principal() {
        if (sasl == null || sasl.mechanism() == null) {
            return Optional.empty();
        }
        return sasl.mechanism() == SaslMechanism.OAUTHBEARER
                ? Optional.ofNullable(sasl.clientId()).map(id -> "client " + id)
                : Optional.ofNullable(sasl.username()).map(u -> "User:" + u);
    }

    /** Appends {@code name="value"} with {@code \} and {@code "} escaped, as the JAAS parser expects. */
    static void jaasOption(StringBuilder jaas, String name, String value) {
        jaas.append(' ').append(name).append("=\"");
        String v = value == null ? "" : value;
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == '\\' || c == '"') {
                jaas.append('\\');
            }
            jaas.append(c);
        }
        jaas.append('"');
    }

    private static String storeType(String file) {
        String lower = file.toLowerCase(Locale.ROOT);
        return lower.endsWith(".jks") ? "JKS" : "PKCS12";
    }

    private static String read(String path, String file) {
        try {
            return Files.readString(Path.of(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw ConfigException.of(path, "cannot read file " + file + " (" + e.getClass().getSimpleName() + ")", e);
        }
    }

    @Override
    public String toString() {
        return "KafkaSecurityConfig[protocol=" + protocol + ", tls=" + tls + ", sasl=" + sasl + "]";
    }
}
