package io.etl.schema.internal;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * The reused output of an encoder: a growable byte array whose content is copied out once per value. Unlike
 * {@link java.io.ByteArrayOutputStream}, whose every write takes a lock, it is for one thread at a time (the
 * encoders that own one hold their own lock while they write): Avro's direct encoder writes each field on its
 * own, so a lock per write would be taken many times per record.
 */
final class ValueBuffer extends OutputStream {

    private byte[] buf;
    private int count;

    ValueBuffer(int initialSize) {
        buf = new byte[initialSize];
    }

    @Override
    public void write(int b) {
        if (count == buf.length) {
            grow(1);
        }
        buf[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        if (len > buf.length - count) {
            grow(len);
        }
        System.arraycopy(b, off, buf, count, len);
        count += len;
    }

    /** Forgets the content, keeping the array. */
    void reset() {
        count = 0;
    }

    /** A copy of the content. */
    byte[] bytes() {
        return Arrays.copyOf(buf, count);
    }

    private void grow(int needed) {
        int size = Math.max(count + needed, buf.length * 2);
        if (size < 0) {
            throw new OutOfMemoryError("a value of more than 2 GiB");
        }
        buf = Arrays.copyOf(buf, size);
    }
}
