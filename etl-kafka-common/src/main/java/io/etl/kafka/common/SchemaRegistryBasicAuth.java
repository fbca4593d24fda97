package io.etl.kafka.common;

import io.etl.kafka.common.internal.ClientProperties;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;

/**
 * HTTP basic authentication against a schema registry ({@code schema_registry.basic_auth}). Take the password
 * from the environment: {@code password: ${REGISTRY_PASSWORD}}; it is never printed.
 *
 * @param user     the user name (for Confluent Cloud, the API key)
 * @param password the password (for Confluent Cloud, the API secret)
 */
public record SchemaRegistryBasicAuth(
        @NotBlank String user, @NotNull String password) {

    @Override
    public String toString() {
        return "SchemaRegistryBasicAuth[user=" + user + ", password=" + ClientProperties.mask(password) + "]";
    }
}
