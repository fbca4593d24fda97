package io.etl.core.config;

import jakarta.validation.constraints.Min;
import java.time.Duration;

/**
 * When a sink shard seals its open batch: at {@code max_records} messages, at {@code max_bytes}, or
 * {@code linger} after the first message arrived, whichever comes first.
 *
 * @param maxRecords messages per batch
 * @param maxBytes   encoded bytes per batch
 * @param linger     longest time a message waits in an open batch
 */
public record BatchConfig(@Min(1) Integer maxRecords, DataSize maxBytes, Duration linger) {

    public static final int DEFAULT_MAX_RECORDS = 2000;
    public static final DataSize DEFAULT_MAX_BYTES = DataSize.ofMebibytes(4);
    public static final Duration DEFAULT_LINGER = Duration.ofMillis(10);

    public BatchConfig {
        maxRecords = maxRecords == null ? DEFAULT_MAX_RECORDS : maxRecords;
        maxBytes = maxBytes == null ? DEFAULT_MAX_BYTES : maxBytes;
        linger = linger == null ? DEFAULT_LINGER : linger;
    }

    public static BatchConfig defaults() {
        return new BatchConfig(null, null, null);
    }
}
