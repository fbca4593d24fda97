package io.etl.schema;

import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import io.etl.schema.internal.ProtobufDecoder;
import io.etl.schema.internal.ProtobufEncoder;
import java.util.Objects;

/**
 * Protobuf in the schema registry's wire format, with the message indexes Confluent's serializers write
 * (the single byte {@code 0} for a file's first message).
 *
 * <pre>{@code
 * KafkaSource.from(config.source("payments")).with(Protobuf.decoder(Payment.parser()))
 * KafkaSink.from(config.sink("ledger")).with(Protobuf.encoder())
 * }</pre>
 *
 * <p>The decoder reads messages whose schema has references (imported files registered as subjects of their own,
 * as Confluent's serializer registers them) like any other: the parser knows the imported types. The encoder
 * registers or looks up the message's {@code .proto} file as printed from its descriptor, and its imports as
 * Confluent's serializer does: each imported file under a subject named by its import path (whatever
 * {@code subject_strategy} says for the message's own file), the files it imports first, and the importing file
 * with a reference to the version that holds each. Files the registry knows built in ({@code google/protobuf/},
 * {@code google/type/}, {@code confluent/}) are neither registered nor referenced, as with that serializer's
 * default {@code skip.known.types=true}. Imports are resolved once per file; with {@code auto_register: false}
 * an import that is not registered is a record error naming its subject.
 */
public final class Protobuf {

    private Protobuf() {}

    /** Messages parsed by {@code parser} (for generated classes {@code Payment.parser()}). */
    public static <T extends Message> SchemaDecoder<T> decoder(Parser<T> parser) {
        return new ProtobufDecoder<>(Objects.requireNonNull(parser, "parser"));
    }

    /** Messages written with their own descriptor's schema. */
    public static <T extends Message> SchemaEncoder<T> encoder() {
        return new ProtobufEncoder<>();
    }
}
