package io.etl.testkit;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A Kafka record as a test writes it or reads it back: key, value and headers as bytes, plus where it
 * sits in the log once read.
 *
 * <p>When producing, only {@link #key()}, {@link #value()}, {@link #headers()} and, optionally,
 * {@link #partition()} matter; {@code partition == -1} lets the producer's partitioner choose. Records
 * returned by {@link KafkaTestCluster#readAll(String)} carry the topic, partition, offset and timestamp
 * they were read from.
 *
 * <pre>{@code
 * cluster.produce("orders", List.of(
 *     TestRecord.of("k1", "{\"id\":1}").withHeader("trace", "abc")));
 * List<TestRecord> out = cluster.readAll("orders");
 * assertThat(out.get(0).valueAsString()).isEqualTo("{\"id\":1}");
 * }</pre>
 *
 * <p>Headers are kept in insertion order; a header name given twice keeps its last value.
 *
 * @param topic     topic read from, or {@code null} for a record about to be produced
 * @param partition partition, or {@code -1} for "let the producer choose"
 * @param offset    offset read from, or {@code -1} for a record about to be produced
 * @param timestamp record timestamp in epoch milliseconds, or {@code -1} for "broker/producer decides"
 * @param key       key bytes, may be {@code null}
 * @param value     value bytes, may be {@code null} (a tombstone)
 * @param headers   header name to value bytes (values may be {@code null}), never {@code null}
 */
public record TestRecord(
        String topic,
        int partition,
        long offset,
        long timestamp,
        byte[] key,
        byte[] value,
        Map<String, byte[]> headers) {

    /** Copies the headers into an unmodifiable, insertion-ordered map. */
    public TestRecord {
        headers = headers == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    /**
     * A record to produce with UTF-8 key and value.
     *
     * @param key   key, may be {@code null}
     * @param value value, may be {@code null}
     * @return a record without headers whose partition the producer chooses
     */
    public static TestRecord of(String key, String value) {
        return of(utf8(key), utf8(value));
    }

    /**
     * A record to produce with raw key and value bytes.
     *
     * @param key   key bytes, may be {@code null}
     * @param value value bytes, may be {@code null}
     * @return a record without headers whose partition the producer chooses
     */
    public static TestRecord of(byte[] key, byte[] value) {
        return new TestRecord(null, -1, -1L, -1L, key, value, Map.of());
    }

    /**
     * This record with one more header (UTF-8 value).
     *
     * @param name  header name
     * @param value header value, may be {@code null}
     * @return a copy carrying the header
     */
    public TestRecord withHeader(String name, String value) {
        return withHeader(name, utf8(value));
    }

    /**
     * This record with one more header.
     *
     * @param name  header name
     * @param value header value bytes, may be {@code null}
     * @return a copy carrying the header
     */
    public TestRecord withHeader(String name, byte[] value) {
        Objects.requireNonNull(name, "name");
        Map<String, byte[]> copy = new LinkedHashMap<>(headers);
        copy.put(name, value);
        return new TestRecord(topic, partition, offset, timestamp, key, value(), copy);
    }

    /**
     * This record sent to a fixed partition.
     *
     * @param partition partition number, or {@code -1} to let the producer choose
     * @return a copy with the partition set
     */
    public TestRecord toPartition(int partition) {
        return new TestRecord(topic, partition, offset, timestamp, key, value, headers);
    }

    /** @return the key decoded as UTF-8, or {@code null} */
    public String keyAsString() {
        return key == null ? null : new String(key, StandardCharsets.UTF_8);
    }

    /** @return the value decoded as UTF-8, or {@code null} */
    public String valueAsString() {
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    /**
     * A header value decoded as UTF-8.
     *
     * @param name header name
     * @return its value, or {@code null} when absent or null
     */
    public String headerAsString(String name) {
        byte[] v = headers.get(name);
        return v == null ? null : new String(v, StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof TestRecord other)) {
            return false;
        }
        if (partition != other.partition
                || offset != other.offset
                || timestamp != other.timestamp
                || !Objects.equals(topic, other.topic)
                || !Arrays.equals(key, other.key)
                || !Arrays.equals(value, other.value)
                || headers.size() != other.headers.size()) {
            return false;
        }
        for (Map.Entry<String, byte[]> e : headers.entrySet()) {
            if (!other.headers.containsKey(e.getKey()) || !Arrays.equals(e.getValue(), other.headers.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = Objects.hash(topic, partition, offset, timestamp);
        h = 31 * h + Arrays.hashCode(key);
        h = 31 * h + Arrays.hashCode(value);
        for (Map.Entry<String, byte[]> e : headers.entrySet()) {
            h += e.getKey().hashCode() ^ Arrays.hashCode(e.getValue());
        }
        return h;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("TestRecord[");
        if (topic != null) {
            sb.append(topic)
                    .append('-')
                    .append(partition)
                    .append('@')
                    .append(offset)
                    .append(", ");
        }
        sb.append("key=").append(keyAsString()).append(", value=").append(valueAsString());
        if (!headers.isEmpty()) {
            sb.append(", headers=").append(headers.keySet());
        }
        return sb.append(']').toString();
    }
}
