package io.etl.schema.internal;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The Confluent wire format: a magic byte {@code 0}, the schema id as 4 bytes big-endian, then the payload.
 * Protobuf payloads start with the message indexes: the path of the message type in its file, as a zigzag
 * varint count followed by zigzag varint indexes, where the common path {@code [0]} (the file's first message)
 * is written as the single byte {@code 0}.
 */
public final class WireFormat {

    /** The first byte of every framed payload. */
    public static final byte MAGIC = 0;

    /** Magic byte and schema id. */
    public static final int HEADER_SIZE = 5;

    private static final int[] FIRST_MESSAGE = {0};

    private WireFormat() {}

    /**
     * The schema id of a framed payload.
     *
     * @throws IllegalArgumentException when the payload is null, shorter than the header or does not start with
     *                                  the magic byte
     */
    public static int schemaId(byte[] payload) {
        if (payload == null) {
            throw new IllegalArgumentException("tombstone (null payload): there is no schema id to read");
        }
        if (payload.length < HEADER_SIZE) {
            throw new IllegalArgumentException("payload of " + payload.length
                    + " byte(s) is too short for the schema registry wire format (magic byte and 4-byte schema id)");
        }
        if (payload[0] != MAGIC) {
            throw new IllegalArgumentException(String.format(
                    "unknown magic byte 0x%02x: not the schema registry wire format (magic byte 0x00)",
                    payload[0] & 0xff));
        }
        return ((payload[1] & 0xff) << 24)
                | ((payload[2] & 0xff) << 16)
                | ((payload[3] & 0xff) << 8)
                | (payload[4] & 0xff);
    }

    /** Writes the magic byte and {@code id} at the start of {@code out}. */
    public static void writeHeader(byte[] out, int id) {
        out[0] = MAGIC;
        out[1] = (byte) (id >>> 24);
        out[2] = (byte) (id >>> 16);
        out[3] = (byte) (id >>> 8);
        out[4] = (byte) id;
    }

    /** The message indexes as written after the header; {@code [0]} is the single byte {@code 0}. */
    public static byte[] messageIndexes(int[] indexes) {
        if (Arrays.equals(indexes, FIRST_MESSAGE)) {
            return new byte[] {0};
        }
        ByteBuffer out = ByteBuffer.allocate(5 * (indexes.length + 1));
        writeZigZag(out, indexes.length);
        for (int index : indexes) {
            writeZigZag(out, index);
        }
        return Arrays.copyOf(out.array(), out.position());
    }

    /**
     * Reads the message indexes starting at {@code buffer}'s position and leaves the position after them.
     *
     * @throws IllegalArgumentException when they are malformed
     */
    public static int[] readMessageIndexes(ByteBuffer buffer) {
        int count = readZigZag(buffer);
        if (count == 0) {
            return FIRST_MESSAGE.clone();
        }
        if (count < 0 || count > 100) {
            throw new IllegalArgumentException("malformed Protobuf message indexes (count " + count + ")");
        }
        int[] indexes = new int[count];
        for (int i = 0; i < count; i++) {
            indexes[i] = readZigZag(buffer);
            if (indexes[i] < 0) {
                throw new IllegalArgumentException("malformed Protobuf message index " + indexes[i]);
            }
        }
        return indexes;
    }

    private static void writeZigZag(ByteBuffer out, int value) {
        int v = (value << 1) ^ (value >> 31);
        while ((v & ~0x7f) != 0) {
            out.put((byte) ((v & 0x7f) | 0x80));
            v >>>= 7;
        }
        out.put((byte) v);
    }

    private static int readZigZag(ByteBuffer in) {
        int value = 0;
        int shift = 0;
        while (true) {
            if (!in.hasRemaining()) {
                throw new IllegalArgumentException("malformed Protobuf message indexes: payload ends inside them");
            }
            byte b = in.get();
            value |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                break;
            }
            shift += 7;
            if (shift > 28) {
                throw new IllegalArgumentException("malformed Protobuf message indexes: varint too long");
            }
        }
        return (value >>> 1) ^ -(value & 1);
    }
}
