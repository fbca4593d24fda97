package io.etl.schema.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ValueBufferTest {

    @Test
    void shouldHoldWhatWasWrittenPastItsFirstSizeAsAByteArrayOutputStreamDoes() {
        ValueBuffer buffer = new ValueBuffer(4);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        Random random = new Random(7);
        for (int i = 0; i < 200; i++) {
            if (i % 3 == 0) {
                int b = random.nextInt(256);
                buffer.write(b);
                expected.write(b);
            } else {
                byte[] chunk = new byte[random.nextInt(40)];
                random.nextBytes(chunk);
                int off = chunk.length == 0 ? 0 : random.nextInt(chunk.length);
                buffer.write(chunk, off, chunk.length - off);
                expected.write(chunk, off, chunk.length - off);
            }
        }
        assertThat(buffer.bytes()).isEqualTo(expected.toByteArray());
    }

    @Test
    void shouldStartAgainAfterAResetAndHandOutCopies() {
        ValueBuffer buffer = new ValueBuffer(8);
        buffer.write(new byte[] {1, 2, 3}, 0, 3);
        byte[] first = buffer.bytes();
        buffer.reset();
        buffer.write(9);
        assertThat(buffer.bytes()).containsExactly(9);
        assertThat(first).containsExactly(1, 2, 3);
    }
}
