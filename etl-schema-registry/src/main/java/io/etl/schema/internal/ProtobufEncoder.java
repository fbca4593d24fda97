package io.etl.schema.internal;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Message;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Protobuf messages written with the schema of their {@code .proto} file (printed from the descriptor) and the
 * message indexes that locate their type in it.
 *
 * @param <T> message type
 */
public final class ProtobufEncoder<T extends Message> extends FramedEncoder<T, Descriptor, Boolean> {

    private static final Map<Descriptor, SchemaText> TEXTS = new ConcurrentHashMap<>();

    public ProtobufEncoder() {
        super("Protobuf");
    }

    @Override
    protected Descriptor schemaOf(T value) {
        return value.getDescriptorForType();
    }

    @Override
    protected SchemaText textOf(Descriptor schema) {
        return TEXTS.computeIfAbsent(schema, d -> new SchemaText(SchemaText.PROTOBUF, ProtoPrinter.print(d.getFile())));
    }

    /** The {@code .proto} text registered for messages of {@code type}. */
    public static String schemaText(Descriptor type) {
        return ProtoPrinter.print(type.getFile());
    }

    @Override
    protected String nameOf(Descriptor schema) {
        return schema.getFullName();
    }

    @Override
    protected byte[] indexesOf(Descriptor schema) {
        return WireFormat.messageIndexes(indexes(schema));
    }

    /** The path of {@code type} in its file: its index among the top-level messages, then among nested ones. */
    static int[] indexes(Descriptor type) {
        Deque<Integer> path = new ArrayDeque<>();
        for (Descriptor d = type; d != null; d = d.getContainingType()) {
            path.addFirst(d.getIndex());
        }
        return path.stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    protected Boolean writerOf(Descriptor schema) {
        return Boolean.TRUE;
    }

    @Override
    protected byte[] write(T value, Framing<Boolean> framing) throws Exception {
        byte[] prefix = framing.prefix();
        int size = value.getSerializedSize();
        byte[] out = new byte[prefix.length + size];
        System.arraycopy(prefix, 0, out, 0, prefix.length);
        CodedOutputStream coded = CodedOutputStream.newInstance(out, prefix.length, size);
        value.writeTo(coded);
        coded.checkNoSpaceLeft();
        return out;
    }
}
