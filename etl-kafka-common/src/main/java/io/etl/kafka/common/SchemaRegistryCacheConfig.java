package io.etl.kafka.common;

import io.etl.core.config.ConfigValidation;
import io.etl.core.error.ConfigException;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.util.Objects;

/**
 * How many schemas a registry client keeps ({@code schema_registry.cache}). Lookups are answered from these
 * caches after a schema's first use, so the per-record path makes no HTTP call; the least recently used entry
 * leaves a full cache.
 *
 * <p>In code, build one with {@link #custom()} or {@link #from(SchemaRegistryCacheConfig)}:
 * {@code SchemaRegistryCacheConfig.custom().byId(5000).build()}.
 *
 * @param byId     schemas kept by id (what decoders look up)
 * @param bySchema ids kept by subject and schema (what encoders look up)
 */
public record SchemaRegistryCacheConfig(
        @Min(1) @Max(1_000_000) Integer byId,
        @Min(1) @Max(1_000_000) Integer bySchema) {

    public static final int DEFAULT_BY_ID = 1000;
    public static final int DEFAULT_BY_SCHEMA = 1000;

    /**
     * The sizes, each null one at its default. YAML binding calls this constructor; code reads better with
     * {@link #custom()}.
     *
     * @throws ConfigException when a size is out of range, naming each
     */
    public SchemaRegistryCacheConfig(Integer byId, Integer bySchema) {
        this.byId = byId == null ? DEFAULT_BY_ID : byId;
        this.bySchema = bySchema == null ? DEFAULT_BY_SCHEMA : bySchema;
        ConfigValidation.checkConstructed(this);
    }

    /** Both caches at their default sizes. */
    public static SchemaRegistryCacheConfig defaults() {
        return new SchemaRegistryCacheConfig(null, null);
    }

    /** A builder starting from the defaults. */
    public static Builder custom() {
        return new Builder();
    }

    /** A builder starting from {@code base}. */
    public static Builder from(SchemaRegistryCacheConfig base) {
        return new Builder(Objects.requireNonNull(base, "base"));
    }

    /** Builds a {@link SchemaRegistryCacheConfig} in code; each setter rejects a size out of range at once. */
    public static final class Builder {

        private int byId = DEFAULT_BY_ID;
        private int bySchema = DEFAULT_BY_SCHEMA;

        private Builder() {}

        private Builder(SchemaRegistryCacheConfig base) {
            byId = base.byId();
            bySchema = base.bySchema();
        }

        /** Schemas kept by id, 1 to 1000000; default {@value SchemaRegistryCacheConfig#DEFAULT_BY_ID}. */
        public Builder byId(int value) {
            byId = ConfigValidation.checkValue(SchemaRegistryCacheConfig.class, "byId", value);
            return this;
        }

        /** Ids kept by subject and schema, 1 to 1000000; default {@value SchemaRegistryCacheConfig#DEFAULT_BY_SCHEMA}. */
        public Builder bySchema(int value) {
            bySchema = ConfigValidation.checkValue(SchemaRegistryCacheConfig.class, "bySchema", value);
            return this;
        }

        /** The sizes. */
        public SchemaRegistryCacheConfig build() {
            return new SchemaRegistryCacheConfig(byId, bySchema);
        }
    }
}
