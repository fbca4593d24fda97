package io.etl.kafka.sink;

import io.etl.core.record.Header;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One message for the sink's topic: key, value, headers and, rarely, an explicit partition. A {@code null}
 * value is a <em>tombstone</em> (a delete on a compacted topic), which is not the same as an empty value.
 *
 * <pre>{@code
 * KafkaMessage upsert = KafkaMessage.builder().key("42").header("source", "crm").value(json).build();
 * KafkaMessage delete = KafkaMessage.builder().key("42").tombstone().build();
 * }</pre>
 *
 * @param key       key bytes, may be null (the producer then spreads messages over partitions)
 * @param value     value bytes, or null for a tombstone
 * @param headers   headers in order, never null
 * @param partition explicit partition, or null to let the producer's partitioner pick one by key
 * @param topic     the topic a route chose for it, or null for the sink's own topic: encoders leave it null (a
 *                  route sets it after the topic function and its checks; a plain sink refuses a message naming
 *                  another topic than its own)
 */
public record KafkaMessage(byte[] key, byte[] value, List<Header> headers, Integer partition, String topic) {

    public KafkaMessage {
        headers = headers == null ? List.of() : List.copyOf(headers);
    }

    /** A message for the sink's own topic. */
    public KafkaMessage(byte[] key, byte[] value, List<Header> headers, Integer partition) {
        this(key, value, headers, partition, null);
    }

    /** A message with this key and value, no headers. */
    public static KafkaMessage of(byte[] key, byte[] value) {
        return new KafkaMessage(key, value, List.of(), null);
    }

    /** A builder; set a value or call {@link Builder#tombstone()}. */
    public static Builder builder() {
        return new Builder();
    }

    /** Whether this is a tombstone (null value). */
    public boolean isTombstone() {
        return value == null;
    }

    /**
     * The size the {@code max_message_bytes} guard compares: key + value + every header's key (UTF-8) and
     * value.
     */
    public long sizeInBytes() {
        long size = (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
        if (headers.isEmpty()) {
            return size; // most messages: no iterator to make
        }
        for (Header h : headers) {
            size += utf8Length(h.key()) + (h.value() == null ? 0 : h.value().length);
        }
        return size;
    }

    /** This message with one more header at the end, replacing earlier headers of that key. */
    public KafkaMessage withHeader(Header header) {
        List<Header> copy = new ArrayList<>(headers.size() + 1);
        for (Header h : headers) {
            if (!h.key().equals(header.key())) {
                copy.add(h);
            }
        }
        copy.add(header);
        return new KafkaMessage(key, value, copy, partition, topic);
    }

    /** This message, bound for {@code destination}. */
    public KafkaMessage withTopic(String destination) {
        return new KafkaMessage(key, value, headers, partition, destination);
    }

    static int utf8Length(String s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KafkaMessage m
                && Arrays.equals(key, m.key)
                && Arrays.equals(value, m.value)
                && headers.equals(m.headers)
                && Objects.equals(partition, m.partition)
                && Objects.equals(topic, m.topic);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return "KafkaMessage[key=" + (key == null ? "null" : key.length + " bytes") + ", value="
                + (value == null ? "tombstone" : value.length + " bytes") + ", headers=" + headers.size()
                + (partition == null ? "" : ", partition=" + partition)
                + (topic == null ? "" : ", topic=" + topic) + "]";
    }

    /** Builds a {@link KafkaMessage}; a value (possibly empty) or {@link #tombstone()} is required. */
    public static final class Builder {
        private byte[] key;
        private byte[] value;
        private boolean valueSet;
        private final List<Header> headers = new ArrayList<>();
        private Integer partition;

        private Builder() {}

        /** The key bytes (null for none). */
        public Builder key(byte[] key) {
            this.key = key;
            return this;
        }

        /** The key as UTF-8 (null for none). */
        public Builder key(String key) {
            this.key = key == null ? null : key.getBytes(StandardCharsets.UTF_8);
            return this;
        }

        /** Adds a header. */
        public Builder header(String key, byte[] value) {
            headers.add(new Header(key, value));
            return this;
        }

        /** Adds a header with a UTF-8 value. */
        public Builder header(String key, String value) {
            headers.add(Header.of(key, value));
            return this;
        }

        /** Adds headers, for example the source record's. */
        public Builder headers(List<Header> more) {
            headers.addAll(more);
            return this;
        }

        /** The value bytes; an empty array is an empty value, not a tombstone. */
        public Builder value(byte[] value) {
            this.value = Objects.requireNonNull(value, "value (use tombstone() for a null value)");
            this.valueSet = true;
            return this;
        }

        /** The value as UTF-8. */
        public Builder value(String value) {
            return value(Objects.requireNonNull(value, "value (use tombstone() for a null value)")
                    .getBytes(StandardCharsets.UTF_8));
        }

        /** A null value: a delete marker on a compacted topic. */
        public Builder tombstone() {
            this.value = null;
            this.valueSet = true;
            return this;
        }

        /** Sends to this partition instead of letting the partitioner choose. */
        public Builder partition(int partition) {
            this.partition = partition;
            return this;
        }

        /** @throws IllegalStateException when neither a value nor a tombstone was set */
        public KafkaMessage build() {
            if (!valueSet) {
                throw new IllegalStateException("a KafkaMessage needs a value or tombstone()");
            }
            return new KafkaMessage(key, value, headers, partition);
        }
    }
}
