package io.etl.kafka.common.internal;

import io.etl.core.error.ConfigException;
import io.etl.kafka.common.KafkaSaslConfig;
import io.etl.kafka.common.KafkaSecurityConfig;
import io.etl.kafka.common.KafkaTlsConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Translates the typed {@code security} section ({@link KafkaSecurityConfig}, which only holds the settings) into
 * kafka-clients properties. One translation answers two questions, so the answers cannot drift apart:
 * {@link #clientProperties} builds the properties, and {@link #clientPropertyKeys} lists the keys it sets without
 * building anything, for the check that finds a property set both in the section and in a passthrough map.
 *
 * <p>Building has side effects, each done once per JVM:
 * <ul>
 *   <li>PEM certificate and key files (mutual TLS) are read once per file version (its path, modification time and
 *       size) and the content reused by every later client; a file replaced on disk is read again;</li>
 *   <li>GSSAPI with {@code krb5_config_file} sets the JVM-wide system property {@code java.security.krb5.conf} the
 *       first time; a later section naming another file is refused;</li>
 *   <li>GSSAPI checks that the keytab holds the principal's keys and logs in with them, once per principal and
 *       keytab version, so that a principal the KDC refuses fails here with its name;</li>
 *   <li>AWS_MSK_IAM checks that its login module is on the class path.</li>
 * </ul>
 * Listing the keys does none of this: it reads no file and contacts nothing.
 *
 * <pre>{@code
 * Map<String, Object> props = SecurityProperties.clientProperties(config.security(), "sinks.eu.kafka.security");
 * Set<String> keys = SecurityProperties.clientPropertyKeys(config.security());
 * }</pre>
 */
public final class SecurityProperties {

    static final String OAUTH_CALLBACK_HANDLER =
            "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler";

    private static final Map<Path, FileVersion> FILES = new ConcurrentHashMap<>();

    private SecurityProperties() {}

    /**
     * The kafka-clients properties of {@code security}, with the side effects described above.
     *
     * @param path the section's path, e.g. {@code sinks.eu.kafka.security}, for problems
     * @throws ConfigException when a certificate, key or keytab file cannot be used, the keytab lacks the
     *                         principal or the login fails, another krb5 configuration is in use, or the AWS_MSK_IAM
     *                         jar is missing
     */
    public static Map<String, Object> clientProperties(KafkaSecurityConfig security, String path) {
        Building building = new Building();
        translate(security, path, building);
        return building.properties;
    }

    /** The keys {@link #clientProperties} sets for {@code security}, without any side effect. */
    public static Set<String> clientPropertyKeys(KafkaSecurityConfig security) {
        Listing listing = new Listing();
        translate(security, "security", listing);
        return listing.keys;
    }

    /** The one translation: every property, its value, and what building it needs first. */
    private static void translate(KafkaSecurityConfig security, String path, Target out) {
        out.put("security.protocol", security.protocol().name());
        if (security.tls() != null) {
            tls(security.tls(), path + ".tls", out);
        }
        KafkaSaslConfig sasl = security.sasl();
        if (sasl != null && sasl.mechanism() != null) {
            sasl(sasl, path + ".sasl", out);
        }
    }

    private static void tls(KafkaTlsConfig tls, String path, Target out) {
        if (tls.caFile() != null) {
            out.put("ssl.truststore.type", "PEM");
            out.put("ssl.truststore.location", tls.caFile());
        } else if (tls.truststoreFile() != null) {
            out.put("ssl.truststore.type", storeType(tls.truststoreFile()));
            out.put("ssl.truststore.location", tls.truststoreFile());
            out.put("ssl.truststore.password", tls.truststorePassword());
        }
        if (tls.certFile() != null && tls.keyFile() != null) {
            out.put("ssl.keystore.type", "PEM");
            out.putFileContent("ssl.keystore.certificate.chain", path + ".cert_file", tls.certFile());
            out.putFileContent("ssl.keystore.key", path + ".key_file", tls.keyFile());
            if (tls.keyPassword() != null) {
                out.put("ssl.key.password", tls.keyPassword());
            }
        } else if (tls.keystoreFile() != null) {
            out.put("ssl.keystore.type", storeType(tls.keystoreFile()));
            out.put("ssl.keystore.location", tls.keystoreFile());
            out.put("ssl.keystore.password", tls.keystorePassword());
            out.put("ssl.key.password", tls.keyPassword() != null ? tls.keyPassword() : tls.keystorePassword());
        }
        if (!tls.endpointIdentification()) {
            out.put("ssl.endpoint.identification.algorithm", "");
        }
    }

    private static void sasl(KafkaSaslConfig sasl, String path, Target out) {
        out.put("sasl.mechanism", sasl.mechanism().kafkaName());
        StringBuilder jaas = new StringBuilder(sasl.mechanism().loginModule()).append(" required");
        switch (sasl.mechanism()) {
            case OAUTHBEARER -> {
                out.put("sasl.login.callback.handler.class", OAUTH_CALLBACK_HANDLER);
                out.put("sasl.oauthbearer.token.endpoint.url", sasl.tokenEndpointUrl());
                jaasOption(jaas, "clientId", sasl.clientId());
                jaasOption(jaas, "clientSecret", sasl.clientSecret());
                optionalJaasOption(jaas, "scope", sasl.scope());
            }
            case GSSAPI -> {
                out.require(() -> kerberosLogin(sasl, path));
                out.put("sasl.kerberos.service.name", sasl.serviceName());
                jaas.append(" useKeyTab=true storeKey=true");
                jaasOption(jaas, "keyTab", sasl.keytabFile());
                jaasOption(jaas, "principal", sasl.principal());
            }
            case AWS_MSK_IAM -> {
                out.require(() -> {
                    if (!AwsMskIam.available()) {
                        throw ConfigException.of(path + ".mechanism", AwsMskIam.missing());
                    }
                });
                out.put("sasl.client.callback.handler.class", AwsMskIam.CALLBACK_HANDLER);
                optionalJaasOption(jaas, "awsRoleArn", sasl.awsRoleArn());
                optionalJaasOption(jaas, "awsRoleSessionName", sasl.awsRoleSessionName());
                optionalJaasOption(jaas, "awsStsRegion", sasl.awsStsRegion());
                optionalJaasOption(jaas, "awsProfileName", sasl.awsProfileName());
            }
            case PLAIN, SCRAM_SHA_256, SCRAM_SHA_512 -> {
                jaasOption(jaas, "username", sasl.username());
                jaasOption(jaas, "password", sasl.password());
            }
        }
        out.put("sasl.jaas.config", jaas.append(';').toString());
    }

    /** The JVM-wide configuration file, then the keytab's keys and one login, as the client will log in. */
    private static void kerberosLogin(KafkaSaslConfig sasl, String path) {
        if (sasl.krb5ConfigFile() != null) {
            KerberosSupport.useConfiguration(path + ".krb5_config_file", sasl.krb5ConfigFile());
        }
        KerberosSupport.requireKeysFor(path + ".principal", sasl.keytabFile(), sasl.principal());
        KerberosSupport.requireLogin(path + ".principal", sasl.keytabFile(), sasl.principal());
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

    private static void optionalJaasOption(StringBuilder jaas, String name, String value) {
        if (value != null) {
            jaasOption(jaas, name, value);
        }
    }

    private static String storeType(String file) {
        String lower = file.toLowerCase(Locale.ROOT);
        return lower.endsWith(".jks") ? "JKS" : "PKCS12";
    }

    /** The content of {@code file}, read once per version of it. */
    private static String contentOf(String path, String file) {
        try {
            Path absolute = Path.of(file).toAbsolutePath().normalize();
            BasicFileAttributes attributes = Files.readAttributes(absolute, BasicFileAttributes.class);
            long modified = attributes.lastModifiedTime().toMillis();
            FileVersion known = FILES.get(absolute);
            if (known != null && known.modified() == modified && known.size() == attributes.size()) {
                return known.content();
            }
            String content = Files.readString(absolute, StandardCharsets.UTF_8);
            FILES.put(absolute, new FileVersion(modified, attributes.size(), content));
            return content;
        } catch (IOException e) {
            throw ConfigException.of(
                    path, "cannot read file " + file + " (" + e.getClass().getSimpleName() + ")", e);
        }
    }

    /** A file's content as it was read, with what tells a later version apart. */
    private record FileVersion(long modified, long size, String content) {}

    /** Where the translation goes: the properties being built, or only their keys. */
    private interface Target {

        /** A property with a value known from the settings alone. */
        void put(String key, Object value);

        /** A property whose value is the content of {@code file} ({@code path} names it in problems). */
        void putFileContent(String key, String path, String file);

        /** Something building the properties must do first (a login, a check of the class path). */
        void require(Runnable sideEffect);
    }

    /** Builds the properties, with the side effects. */
    private static final class Building implements Target {

        final Map<String, Object> properties = new LinkedHashMap<>();

        @Override
        public void put(String key, Object value) {
            properties.put(key, value);
        }

        @Override
        public void putFileContent(String key, String path, String file) {
            properties.put(key, contentOf(path, file));
        }

        @Override
        public void require(Runnable sideEffect) {
            sideEffect.run();
        }
    }

    /** Lists the keys, reading nothing and doing nothing. */
    private static final class Listing implements Target {

        final Set<String> keys = new LinkedHashSet<>();

        @Override
        public void put(String key, Object value) {
            keys.add(key);
        }

        @Override
        public void putFileContent(String key, String path, String file) {
            keys.add(key);
        }

        @Override
        public void require(Runnable sideEffect) {
            // listing has no side effects
        }
    }
}
