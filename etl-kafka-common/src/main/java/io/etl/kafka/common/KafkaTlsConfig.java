package io.etl.kafka.common;

import io.etl.core.config.ConfigValidation;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.kafka.common.internal.ClientProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * TLS settings of the typed security section ({@code security.tls}). Trust the brokers with a PEM CA
 * file ({@code ca_file}) or a PKCS12/JKS truststore; for mutual TLS present a PEM certificate and
 * private key ({@code cert_file} + {@code key_file}) or a PKCS12/JKS keystore. Without either trust
 * setting the JVM's default trust store is used.
 *
 * <p>In code, build one with {@link #custom()} or {@link #from(KafkaTlsConfig)}:
 * {@code KafkaTlsConfig.custom().caFile("/etc/kafka/ca.pem").build()}. However it is built, an instance holds
 * only settings that YAML validation accepts: its constructor checks them (the files must be readable).
 *
 * @param caFile                 PEM file with the CA certificate(s) that signed the brokers' certificates
 * @param certFile               PEM file with the client certificate chain (mTLS)
 * @param keyFile                PEM file with the client's PKCS#8 private key (mTLS)
 * @param keyPassword            password of an encrypted {@code key_file}, or of the key inside the keystore
 * @param truststoreFile         PKCS12 ({@code .p12}, {@code .pfx}) or JKS ({@code .jks}) truststore
 * @param truststorePassword     the truststore's password
 * @param keystoreFile           PKCS12 or JKS keystore holding the client certificate and key (mTLS)
 * @param keystorePassword       the keystore's password
 * @param endpointIdentification whether the broker's host name must match its certificate (default true)
 */
public record KafkaTlsConfig(
        String caFile,
        String certFile,
        String keyFile,
        String keyPassword,
        String truststoreFile,
        String truststorePassword,
        String keystoreFile,
        String keystorePassword,
        Boolean endpointIdentification) {

    /** Host names are verified unless switched off. */
    public static final boolean DEFAULT_ENDPOINT_IDENTIFICATION = true;

    /**
     * The settings, each null one unset ({@code endpoint_identification} at its default). YAML binding calls this
     * constructor; code reads better with {@link #custom()}.
     *
     * @throws ConfigException when the settings break a rule (both {@code ca_file} and {@code truststore_file}, a
     *                         certificate without its key, a file that cannot be read, ...), naming each
     */
    public KafkaTlsConfig(
            String caFile,
            String certFile,
            String keyFile,
            String keyPassword,
            String truststoreFile,
            String truststorePassword,
            String keystoreFile,
            String keystorePassword,
            Boolean endpointIdentification) {
        this.caFile = caFile;
        this.certFile = certFile;
        this.keyFile = keyFile;
        this.keyPassword = keyPassword;
        this.truststoreFile = truststoreFile;
        this.truststorePassword = truststorePassword;
        this.keystoreFile = keystoreFile;
        this.keystorePassword = keystorePassword;
        this.endpointIdentification =
                endpointIdentification == null ? DEFAULT_ENDPOINT_IDENTIFICATION : endpointIdentification;
        ConfigValidation.checkConstructed(this, c -> c.check(""));
    }

    /** TLS trusting the CA in {@code caFile} (PEM), without a client certificate: {@code custom().caFile(caFile).build()}. */
    public static KafkaTlsConfig trustingPem(String caFile) {
        return custom().caFile(caFile).build();
    }

    /** Whether a client certificate is configured (mutual TLS). */
    public boolean mutual() {
        return certFile != null || keyFile != null || keystoreFile != null;
    }

    /**
     * The rules of this block a record cannot express: one way to trust and one to present a certificate, each
     * password with its file, and readable files. {@code path} is the block's own path, e.g.
     * {@code sinks.eu.kafka.security.tls}.
     */
    public List<ConfigProblem> check(String path) {
        List<ConfigProblem> problems = new ArrayList<>();
        if (caFile != null && truststoreFile != null) {
            problems.add(new ConfigProblem(path + ".ca_file", "set either ca_file (PEM) or truststore_file, not both"));
        }
        if ((certFile == null) != (keyFile == null)) {
            problems.add(new ConfigProblem(
                    path + (certFile == null ? ".cert_file" : ".key_file"),
                    "mutual TLS needs both cert_file and key_file"));
        }
        if (certFile != null && keystoreFile != null) {
            problems.add(new ConfigProblem(
                    path + ".keystore_file", "set either cert_file/key_file (PEM) or keystore_file, not both"));
        }
        if (truststoreFile != null && truststorePassword == null) {
            problems.add(new ConfigProblem(path + ".truststore_password", "is required with truststore_file"));
        }
        if (truststorePassword != null && truststoreFile == null) {
            problems.add(new ConfigProblem(path + ".truststore_password", "is only used with truststore_file"));
        }
        if (keystoreFile != null && keystorePassword == null) {
            problems.add(new ConfigProblem(path + ".keystore_password", "is required with keystore_file"));
        }
        if (keystorePassword != null && keystoreFile == null) {
            problems.add(new ConfigProblem(path + ".keystore_password", "is only used with keystore_file"));
        }
        if (keyPassword != null && keyFile == null && keystoreFile == null) {
            problems.add(new ConfigProblem(path + ".key_password", "is only used with key_file or keystore_file"));
        }
        readable(problems, path, "ca_file", caFile);
        readable(problems, path, "cert_file", certFile);
        readable(problems, path, "key_file", keyFile);
        readable(problems, path, "truststore_file", truststoreFile);
        readable(problems, path, "keystore_file", keystoreFile);
        return problems;
    }

    private static void readable(List<ConfigProblem> problems, String path, String key, String file) {
        if (file != null && !Files.isReadable(Path.of(file))) {
            problems.add(new ConfigProblem(path + "." + key, "cannot read file " + file));
        }
    }

    /** A builder starting from the defaults: no file, host names verified. */
    public static Builder custom() {
        return new Builder();
    }

    /** A builder starting from {@code base}. */
    public static Builder from(KafkaTlsConfig base) {
        return new Builder(Objects.requireNonNull(base, "base"));
    }

    @Override
    public String toString() {
        return "KafkaTlsConfig[caFile=" + caFile + ", certFile=" + certFile + ", keyFile=" + keyFile
                + ", keyPassword=" + ClientProperties.mask(keyPassword) + ", truststoreFile=" + truststoreFile
                + ", truststorePassword=" + ClientProperties.mask(truststorePassword) + ", keystoreFile="
                + keystoreFile + ", keystorePassword=" + ClientProperties.mask(keystorePassword)
                + ", endpointIdentification=" + endpointIdentification + "]";
    }

    /**
     * Builds a {@link KafkaTlsConfig} in code. Each file setter rejects a file that cannot be read at once, with the
     * message YAML validation gives; {@link #build()} checks the rules between the settings.
     */
    public static final class Builder {

        private String caFile;
        private String certFile;
        private String keyFile;
        private String keyPassword;
        private String truststoreFile;
        private String truststorePassword;
        private String keystoreFile;
        private String keystorePassword;
        private boolean endpointIdentification = DEFAULT_ENDPOINT_IDENTIFICATION;

        private Builder() {}

        private Builder(KafkaTlsConfig base) {
            caFile = base.caFile();
            certFile = base.certFile();
            keyFile = base.keyFile();
            keyPassword = base.keyPassword();
            truststoreFile = base.truststoreFile();
            truststorePassword = base.truststorePassword();
            keystoreFile = base.keystoreFile();
            keystorePassword = base.keystorePassword();
            endpointIdentification = base.endpointIdentification();
        }

        /** A readable PEM file of the CA certificate(s) to trust; not with {@link #truststoreFile}. */
        public Builder caFile(String value) {
            caFile = readableFile("ca_file", value);
            return this;
        }

        /** A readable PEM file of the client certificate chain; needs {@link #keyFile}. */
        public Builder certFile(String value) {
            certFile = readableFile("cert_file", value);
            return this;
        }

        /** A readable PEM file of the client's PKCS#8 private key; needs {@link #certFile}. */
        public Builder keyFile(String value) {
            keyFile = readableFile("key_file", value);
            return this;
        }

        /** The password of an encrypted {@link #keyFile} or of the key in the {@link #keystoreFile}. */
        public Builder keyPassword(String value) {
            keyPassword = ConfigValidation.requireNonNull("keyPassword", value);
            return this;
        }

        /** A readable PKCS12 or JKS truststore; needs {@link #truststorePassword}, not with {@link #caFile}. */
        public Builder truststoreFile(String value) {
            truststoreFile = readableFile("truststore_file", value);
            return this;
        }

        /** The truststore's password. */
        public Builder truststorePassword(String value) {
            truststorePassword = ConfigValidation.requireNonNull("truststorePassword", value);
            return this;
        }

        /** A readable PKCS12 or JKS keystore of the client certificate and key; needs {@link #keystorePassword}. */
        public Builder keystoreFile(String value) {
            keystoreFile = readableFile("keystore_file", value);
            return this;
        }

        /** The keystore's password. */
        public Builder keystorePassword(String value) {
            keystorePassword = ConfigValidation.requireNonNull("keystorePassword", value);
            return this;
        }

        /** Whether the broker's host name must match its certificate; default {@value KafkaTlsConfig#DEFAULT_ENDPOINT_IDENTIFICATION}. */
        public Builder endpointIdentification(boolean value) {
            endpointIdentification = value;
            return this;
        }

        /** The settings; the constructor checks the rules between them. */
        public KafkaTlsConfig build() {
            return new KafkaTlsConfig(
                    caFile,
                    certFile,
                    keyFile,
                    keyPassword,
                    truststoreFile,
                    truststorePassword,
                    keystoreFile,
                    keystorePassword,
                    endpointIdentification);
        }

        /** {@code value}, when it is a file this process can read; {@code key} is its YAML key. */
        private static String readableFile(String key, String value) {
            ConfigValidation.requireNonNull(key, value);
            List<ConfigProblem> problems = new ArrayList<>(1);
            readable(problems, "", key, value);
            ConfigValidation.requireNone(problems);
            return value;
        }
    }
}
