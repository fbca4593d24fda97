package io.etl.kafka.common;

import io.etl.core.config.ConfigValidation;
import io.etl.core.error.ConfigException;
import io.etl.kafka.common.internal.ClientProperties;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.util.Objects;

/**
 * HTTP basic authentication against a schema registry ({@code schema_registry.basic_auth}). Take the password
 * from the environment: {@code password: ${REGISTRY_PASSWORD}}; it is never printed.
 *
 * <p>In code, build one with {@link #custom()}: {@code SchemaRegistryBasicAuth.custom().user("etl").password(pw)
 * .build()}, or set it on a registry's builder with {@code basicAuth(user, password)}.
 *
 * @param user     the user name (for Confluent Cloud, the API key)
 * @param password the password (for Confluent Cloud, the API secret)
 */
public record SchemaRegistryBasicAuth(
        @NotBlank String user, @NotNull String password) {

    /**
     * The credentials. YAML binding calls this constructor; code reads better with {@link #custom()}.
     *
     * @throws ConfigException when the user is blank or the password missing
     */
    public SchemaRegistryBasicAuth(String user, String password) {
        this.user = user;
        this.password = password;
        ConfigValidation.checkConstructed(this);
    }

    /** A builder with neither the user nor the password (both required). */
    public static Builder custom() {
        return new Builder();
    }

    /** A builder starting from {@code base}. */
    public static Builder from(SchemaRegistryBasicAuth base) {
        return new Builder(Objects.requireNonNull(base, "base"));
    }

    @Override
    public String toString() {
        return "SchemaRegistryBasicAuth[user=" + user + ", password=" + ClientProperties.mask(password) + "]";
    }

    /** Builds a {@link SchemaRegistryBasicAuth} in code; each setter checks its value at once. */
    public static final class Builder {

        private String user;
        private String password;

        private Builder() {}

        private Builder(SchemaRegistryBasicAuth base) {
            user = base.user();
            password = base.password();
        }

        /** The user name, not blank; required. */
        public Builder user(String value) {
            user = ConfigValidation.checkValue(SchemaRegistryBasicAuth.class, "user", value);
            return this;
        }

        /** The password (may be empty, never null); required. */
        public Builder password(String value) {
            password = ConfigValidation.checkValue(SchemaRegistryBasicAuth.class, "password", value);
            return this;
        }

        /** The credentials; the constructor checks that both are set. */
        public SchemaRegistryBasicAuth build() {
            return new SchemaRegistryBasicAuth(user, password);
        }
    }
}
