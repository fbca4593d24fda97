package io.etl.core.record;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Where a record came from: its source topic, partition and offset, its timestamp, the source key
 * bytes and headers, and the value bytes as read. Every output of a source record carries the same
 * meta, so keys and headers survive the operator chain unless an encoder replaces them, and any stage
 * can dead-letter the record exactly as it was read (the payload is a reference to the bytes the
 * source already holds, never a copy).
 *
 * @param topic     source topic (or stream) name
 * @param partition source partition
 * @param offset    offset within the partition
 * @param timestamp record timestamp in epoch milliseconds, or -1 when unknown
 * @param key       source key bytes, may be null
 * @param headers   source headers, never null
 * @param payload   the source value bytes as read, or null for a tombstone or a source that does not keep
 *                  them; not part of {@link #equals}: a position identifies a record
 */
public record RecordMeta(
        String topic, int partition, long offset, long timestamp, byte[] key, List<Header> headers, byte[] payload) {

    public RecordMeta {
        Objects.requireNonNull(topic, "topic");
        headers = headers == null ? List.of() : headers;
    }

    /** A meta without the payload bytes. */
    public RecordMeta(String topic, int partition, long offset, long timestamp, byte[] key, List<Header> headers) {
        this(topic, partition, offset, timestamp, key, headers, null);
    }

    /** A meta with no key and no headers, handy in tests. */
    public static RecordMeta of(String topic, int partition, long offset) {
        return new RecordMeta(topic, partition, offset, -1L, null, List.of());
    }

    /** A stable hash of the key (0 for a null key), used to route records to sink shards. */
    public int keyHash() {
        return key == null ? 0 : Arrays.hashCode(key);
    }

    /** {@code topic-partition@offset}, the form used in logs and error messages. */
    public String position() {
        return topic + "-" + partition + "@" + offset;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RecordMeta m
                && topic.equals(m.topic)
                && partition == m.partition
                && offset == m.offset
                && timestamp == m.timestamp
                && Arrays.equals(key, m.key)
                && headers.equals(m.headers);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, partition, offset);
    }

    @Override
    public String toString() {
        return "RecordMeta[" + position() + ", ts=" + timestamp + ", key="
                + (key == null ? "null" : key.length + " bytes") + ", headers=" + headers.size()
                + (payload == null ? "" : ", payload=" + payload.length + " bytes") + "]";
    }
}
