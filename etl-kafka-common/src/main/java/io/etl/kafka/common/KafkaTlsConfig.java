package io.etl.kafka.common;

import io.etl.kafka.common.internal.ClientProperties;

/**
 * TLS settings of the typed security section ({@code security.tls}). Trust the brokers with a PEM CA
 * file ({@code ca_file}) or a PKCS12/JKS truststore; for mutual TLS present a PEM certificate and
 * private key ({@code cert_file} + {@code key_file}) or a PKCS12/JKS keystore. Without either trust
 * setting the JVM's default trust store is used.
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

    public KafkaTlsConfig {
        endpointIdentification =
                endpointIdentification == null ? DEFAULT_ENDPOINT_IDENTIFICATION : endpointIdentification;
    }

    /** TLS trusting the CA in {@code caFile} (PEM), without a client certificate. */
    public static KafkaTlsConfig trustingPem(String caFile) {
        return new KafkaTlsConfig(caFile, null, null, null, null, null, null, null, null);
    }

    /** Whether a client certificate is configured (mutual TLS). */
    public boolean mutual() {
        return certFile != null || keyFile != null || keystoreFile != null;
    }

    @Override
    public String toString() {
        return "KafkaTlsConfig[caFile=" + caFile + ", certFile=" + certFile + ", keyFile=" + keyFile
                + ", keyPassword=" + ClientProperties.mask(keyPassword) + ", truststoreFile=" + truststoreFile
                + ", truststorePassword=" + ClientProperties.mask(truststorePassword) + ", keystoreFile="
                + keystoreFile + ", keystorePassword=" + ClientProperties.mask(keystorePassword)
                + ", endpointIdentification=" + endpointIdentification + "]";
    }
}
