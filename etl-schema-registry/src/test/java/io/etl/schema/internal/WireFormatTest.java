package io.etl.schema.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class WireFormatTest {

    @Test
    void shouldReadTheBigEndianIdAfterTheMagicByte() {
        byte[] header = new byte[5];
        WireFormat.writeHeader(header, 0x01020304);
        assertThat(header).containsExactly(0, 1, 2, 3, 4);
        assertThat(WireFormat.schemaId(header)).isEqualTo(0x01020304);
    }

    @Test
    void shouldRejectAnUnknownMagicByteNamingIt() {
        assertThatThrownBy(() -> WireFormat.schemaId(new byte[] {1, 0, 0, 0, 7, 42}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown magic byte 0x01");
    }

    @Test
    void shouldRejectAPayloadShorterThanTheHeader() {
        assertThatThrownBy(() -> WireFormat.schemaId(new byte[] {0, 0, 1}))
                .hasMessageContaining("3 byte(s) is too short");
    }

    @Test
    void shouldWriteTheFirstMessageAsOneZeroByte() {
        assertThat(WireFormat.messageIndexes(new int[] {0})).containsExactly(0);
    }

    @Test
    void shouldWriteOtherMessageIndexesAsZigZagVarintsWithTheirCount() {
        assertThat(WireFormat.messageIndexes(new int[] {1})).containsExactly(2, 2);
        assertThat(WireFormat.messageIndexes(new int[] {0, 1})).containsExactly(4, 0, 2);
        assertThat(WireFormat.messageIndexes(new int[] {70})).containsExactly(2, 0x8c, 0x01);
    }

    @Test
    void shouldReadBackWhatItWrites() {
        for (int[] indexes : new int[][] {{0}, {1}, {0, 1}, {3, 2, 70}, {200}}) {
            ByteBuffer buffer = ByteBuffer.wrap(WireFormat.messageIndexes(indexes));
            assertThat(WireFormat.readMessageIndexes(buffer)).containsExactly(indexes);
            assertThat(buffer.hasRemaining()).isFalse();
        }
    }

    @Test
    void shouldRejectIndexesCutShort() {
        assertThatThrownBy(() -> WireFormat.readMessageIndexes(ByteBuffer.wrap(new byte[] {4, 0})))
                .hasMessageContaining("ends inside them");
    }
}
