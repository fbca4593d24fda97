package io.etl.kafka.common;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The SASL mechanism ({@code sasl.mechanism}) of the typed security section. Written in YAML as Kafka
 * spells it ({@code SCRAM-SHA-512}), in any case, with {@code -} or {@code _}.
 */
public enum SaslMechanism {
    /** User name and password sent as they are; use only inside TLS. */
    PLAIN("PLAIN", "org.apache.kafka.common.security.plain.PlainLoginModule"),
    /** Salted challenge-response with SHA-256. */
    SCRAM_SHA_256("SCRAM-SHA-256", "org.apache.kafka.common.security.scram.ScramLoginModule"),
    /** Salted challenge-response with SHA-512. */
    SCRAM_SHA_512("SCRAM-SHA-512", "org.apache.kafka.common.security.scram.ScramLoginModule"),
    /** OAuth 2 bearer tokens obtained with the client-credentials grant from a token endpoint. */
    OAUTHBEARER("OAUTHBEARER", "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"),
    /** Kerberos: a principal logs in with the keys of a keytab. */
    GSSAPI("GSSAPI", "com.sun.security.auth.module.Krb5LoginModule"),
    /**
     * Amazon MSK's IAM access control; the login module comes from {@code software.amazon.msk:aws-msk-iam-auth},
     * an optional dependency the application adds.
     */
    AWS_MSK_IAM("AWS_MSK_IAM", "software.amazon.msk.auth.iam.IAMLoginModule");

    private final String kafkaName;
    private final String loginModule;

    SaslMechanism(String kafkaName, String loginModule) {
        this.kafkaName = kafkaName;
        this.loginModule = loginModule;
    }

    /** The name Kafka uses, e.g. {@code SCRAM-SHA-256}. */
    @JsonValue
    public String kafkaName() {
        return kafkaName;
    }

    /** The JAAS login module class for this mechanism. */
    public String loginModule() {
        return loginModule;
    }

    /**
     * Parses a mechanism name leniently ({@code scram-sha-256}, {@code SCRAM_SHA_256}).
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    @JsonCreator
    public static SaslMechanism of(String text) {
        String normalized =
                text == null ? "" : text.trim().toUpperCase(Locale.ROOT).replace('_', '-');
        for (SaslMechanism m : values()) {
            if (m.kafkaName.replace('_', '-').equals(normalized)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown SASL mechanism '" + text + "' (expected one of "
                + Arrays.stream(values()).map(SaslMechanism::kafkaName).collect(Collectors.joining(", ")) + ")");
    }

    @Override
    public String toString() {
        return kafkaName;
    }
}
