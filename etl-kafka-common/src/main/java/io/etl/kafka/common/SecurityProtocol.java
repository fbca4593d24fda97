package io.etl.kafka.common;

/**
 * How a Kafka client talks to the brokers ({@code security.protocol}). Written in YAML in any case:
 * {@code sasl_ssl} and {@code SASL_SSL} are the same.
 */
public enum SecurityProtocol {
    /** No encryption, no authentication. */
    PLAINTEXT,
    /** TLS; the client authenticates with a certificate only for mTLS. */
    SSL,
    /** SASL without TLS: credentials travel in the clear; for tests and trusted networks only. */
    SASL_PLAINTEXT,
    /** SASL inside TLS: the usual choice for password or token authentication. */
    SASL_SSL;

    /** Whether this protocol carries SASL authentication. */
    public boolean usesSasl() {
        return this == SASL_PLAINTEXT || this == SASL_SSL;
    }

    /** Whether this protocol runs over TLS. */
    public boolean usesTls() {
        return this == SSL || this == SASL_SSL;
    }
}
