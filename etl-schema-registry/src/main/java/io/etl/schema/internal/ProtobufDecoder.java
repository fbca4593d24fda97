package io.etl.schema.internal;

import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import java.nio.ByteBuffer;

/**
 * Protobuf payloads parsed by the caller's generated (or dynamic) parser. The writer schema is looked up once per
 * id, to tell an unknown id or a schema of another format from a good record; its references (imported files) are
 * not needed, the parser knows the types it reads. The message indexes are skipped.
 *
 * @param <T> message type
 */
public final class ProtobufDecoder<T extends Message> extends FramedDecoder<T, Boolean> {

    private final Parser<T> parser;

    public ProtobufDecoder(Parser<T> parser) {
        super("Protobuf");
        this.parser = parser;
    }

    @Override
    protected Boolean reader(int id, SchemaText writer) {
        requireType(id, writer, SchemaText.PROTOBUF);
        return Boolean.TRUE;
    }

    @Override
    protected T read(Boolean reader, int id, byte[] bytes, int offset) throws Exception {
        int start;
        if (offset < bytes.length && bytes[offset] == 0) {
            start = offset + 1; // [0]: the file's first message, the common case
        } else {
            ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, bytes.length - offset);
            WireFormat.readMessageIndexes(buffer);
            start = buffer.position();
        }
        return parser.parseFrom(bytes, start, bytes.length - start);
    }
}
