package io.etl.schema;

import com.google.protobuf.Descriptors.Descriptor;
import io.etl.schema.internal.ProtobufEncoder;

/** The {@code .proto} text the Protobuf encoder registers for a message type. */
final class ProtobufPrinting {

    private ProtobufPrinting() {}

    static String print(Descriptor type) {
        return ProtobufEncoder.schemaText(type);
    }
}
