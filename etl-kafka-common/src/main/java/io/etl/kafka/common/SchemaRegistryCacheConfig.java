package io.etl.kafka.common;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/**
 * How many schemas a registry client keeps ({@code schema_registry.cache}). Lookups are answered from these
 * caches after a schema's first use, so the per-record path makes no HTTP call; the least recently used entry
 * leaves a full cache.
 *
 * @param byId     schemas kept by id (what decoders look up)
 * @param bySchema ids kept by subject and schema (what encoders look up)
 */
public record SchemaRegistryCacheConfig(
        @Min(1) @Max(1_000_000) Integer byId,
        @Min(1) @Max(1_000_000) Integer bySchema) {

    public static final int DEFAULT_BY_ID = 1000;
    public static final int DEFAULT_BY_SCHEMA = 1000;

    public SchemaRegistryCacheConfig {
        byId = byId == null ? DEFAULT_BY_ID : byId;
        bySchema = bySchema == null ? DEFAULT_BY_SCHEMA : bySchema;
    }

    /** Both caches at their default sizes. */
    public static SchemaRegistryCacheConfig defaults() {
        return new SchemaRegistryCacheConfig(null, null);
    }
}
