package io.etl.core.config;

import io.etl.core.error.ConfigException;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import java.util.Objects;

/**
 * When a sink shard seals its open batch: at {@code max_records} messages, at {@code max_bytes}, or
 * {@code linger} after the first message arrived, whichever comes first.
 *
 * <p>In code, build one with {@link #custom()} or {@link #from(BatchConfig)}:
 * {@code BatchConfig.custom().maxRecords(500).linger(Duration.ofMillis(5)).build()}. However it is built, an
 * instance holds only values that YAML validation accepts: its constructor checks them.
 *
 * @param maxRecords messages per batch
 * @param maxBytes   encoded bytes per batch
 * @param linger     longest time a message waits in an open batch
 */
public record BatchConfig(@Min(1) Integer maxRecords, DataSize maxBytes, Duration linger) {

    public static final int DEFAULT_MAX_RECORDS = 2000;
    public static final DataSize DEFAULT_MAX_BYTES = DataSize.ofMebibytes(4);
    public static final Duration DEFAULT_LINGER = Duration.ofMillis(10);

    /**
     * The settings, each null one at its default. YAML binding calls this constructor; code reads better with
     * {@link #custom()}.
     *
     * @throws ConfigException when a setting is out of range, naming each one
     */
    public BatchConfig(Integer maxRecords, DataSize maxBytes, Duration linger) {
        this.maxRecords = maxRecords == null ? DEFAULT_MAX_RECORDS : maxRecords;
        this.maxBytes = maxBytes == null ? DEFAULT_MAX_BYTES : maxBytes;
        this.linger = linger == null ? DEFAULT_LINGER : linger;
        ConfigValidation.checkConstructed(this);
    }

    /** Every setting at its default. */
    public static BatchConfig defaults() {
        return new BatchConfig(null, null, null);
    }

    /** A builder starting from the defaults. */
    public static Builder custom() {
        return new Builder(defaults());
    }

    /** A builder starting from {@code base}. */
    public static Builder from(BatchConfig base) {
        return new Builder(Objects.requireNonNull(base, "base"));
    }

    /**
     * Builds a {@link BatchConfig} in code; each setter rejects a value out of range at once, with the
     * message YAML validation gives, and {@link #build()} checks the whole.
     */
    public static final class Builder {
        private int maxRecords;
        private DataSize maxBytes;
        private Duration linger;

        private Builder(BatchConfig base) {
            maxRecords = base.maxRecords();
            maxBytes = base.maxBytes();
            linger = base.linger();
        }

        /** Messages per batch, at least 1; default {@value BatchConfig#DEFAULT_MAX_RECORDS}. */
        public Builder maxRecords(int value) {
            maxRecords = ConfigValidation.checkValue(BatchConfig.class, "maxRecords", value);
            return this;
        }

        /** Encoded bytes per batch; default 4MiB. */
        public Builder maxBytes(DataSize value) {
            maxBytes = ConfigValidation.requireNonNull("maxBytes", value);
            return this;
        }

        /** Longest time a message waits in an open batch, zero or more; default 10ms. */
        public Builder linger(Duration value) {
            linger = ConfigValidation.checkDuration("linger", value);
            return this;
        }

        /** The settings; the constructor checks the whole as YAML validation does. */
        public BatchConfig build() {
            return new BatchConfig(maxRecords, maxBytes, linger);
        }
    }
}
