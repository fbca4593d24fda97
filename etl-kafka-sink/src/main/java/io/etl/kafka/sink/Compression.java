package io.etl.kafka.sink;

import java.util.Locale;

/** Producer batch compression ({@code compression}); written in YAML in any case, e.g. {@code lz4}. */
public enum Compression {
    /** No compression (the default): lowest CPU, the right choice on a fast local network. */
    NONE,
    /** gzip: smallest output, most CPU. */
    GZIP,
    /** snappy. */
    SNAPPY,
    /** lz4: cheap and effective; the usual pick when the network is the bottleneck. */
    LZ4,
    /** zstd: good ratio at moderate CPU; needs brokers of version 2.1 or later. */
    ZSTD;

    /** The {@code compression.type} value kafka-clients expects. */
    public String kafkaName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
