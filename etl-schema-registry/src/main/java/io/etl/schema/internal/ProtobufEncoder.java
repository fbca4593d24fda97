package io.etl.schema.internal;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Message;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Protobuf messages written with the schema of their {@code .proto} file (printed from the descriptor) and the
 * message indexes that locate their type in it.
 *
 * <p>As Confluent's serializer does, a file's imports are registered (or, without {@code auto_register}, looked
 * up) under subjects named by their import paths, the imports of an import first, and the file names them as
 * references. Imports the registry knows built in ({@link #builtIn}) are neither registered nor referenced, as
 * with Confluent's serializer's default {@code skip.known.types=true}.
 *
 * @param <T> message type
 */
public final class ProtobufEncoder<T extends Message> extends FramedEncoder<T, Descriptor, Boolean> {

    private static final Logger LOG = LoggerFactory.getLogger(ProtobufEncoder.class);
    private static final Map<Descriptor, SchemaText> TEXTS = new ConcurrentHashMap<>();
    private static final List<String> BUILT_IN = List.of("google/protobuf/", "google/type/", "confluent/");

    /** The text sent for each file put to use, with its references resolved; guarded by the encoder's lock. */
    private final Map<FileDescriptor, SchemaText> resolved = new HashMap<>();
    /** The version of its import-path subject that holds each imported file; guarded by the encoder's lock. */
    private final Map<FileDescriptor, Integer> versions = new HashMap<>();

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

    @Override
    protected SchemaText textToSend(Descriptor schema, RegistryClient client, boolean register) {
        FileDescriptor file = schema.getFile();
        SchemaText text = resolved.get(file);
        if (text == null) {
            List<SchemaReference> references = referencesOf(file, schema, client, register);
            SchemaText printed = textOf(schema);
            text = references.isEmpty() ? printed : new SchemaText(SchemaText.PROTOBUF, printed.schema(), references);
            resolved.put(file, text);
        }
        return text;
    }

    /**
     * Whether the registry knows the file {@code name} built in: Protobuf's well-known types
     * ({@code google/protobuf/}), Google's common types ({@code google/type/}) and Confluent's own
     * ({@code confluent/}). Confluent's serializer skips them by default.
     */
    static boolean builtIn(String name) {
        return BUILT_IN.stream().anyMatch(name::startsWith);
    }

    /** A reference to each direct import of {@code file} but the built-in ones, in import order. */
    private List<SchemaReference> referencesOf(
            FileDescriptor file, Descriptor type, RegistryClient client, boolean register) {
        List<SchemaReference> references = new ArrayList<>();
        for (FileDescriptor dependency : file.getDependencies()) {
            if (!builtIn(dependency.getName())) {
                int version = versionOf(dependency, file, type, client, register);
                references.add(new SchemaReference(dependency.getName(), dependency.getName(), version));
            }
        }
        return references;
    }

    /**
     * The version of subject {@code file.getName()} holding {@code file} (imported by {@code importer}) with its
     * own references, its imports resolved first; registered first when {@code register}.
     */
    private int versionOf(
            FileDescriptor file, FileDescriptor importer, Descriptor type, RegistryClient client, boolean register) {
        Integer known = versions.get(file);
        if (known != null) {
            return known;
        }
        List<SchemaReference> references = referencesOf(file, type, client, register);
        SchemaText text = new SchemaText(SchemaText.PROTOBUF, ProtoPrinter.print(file), references);
        String subject = file.getName();
        int version;
        try {
            if (register) {
                client.register(subject, text);
            }
            version = client.lookup(subject, text).version();
        } catch (RegistryException e) {
            if (e.unavailable()) {
                throw e;
            }
            throw new SchemaRefused(refusal(file, importer, type, register, e), e);
        }
        LOG.debug(
                "Protobuf import '{}' of {} is version {} of subject '{}'",
                subject,
                type.getFullName(),
                version,
                subject);
        versions.put(file, version);
        return version;
    }

    private static String refusal(
            FileDescriptor file, FileDescriptor importer, Descriptor type, boolean register, RegistryException e) {
        String what = "Protobuf schema " + type.getFullName() + " needs '" + file.getName() + "' (imported by "
                + importer.getName() + "), which";
        if (!register && e.notFound()) {
            return what + " is not registered under subject '" + file.getName()
                    + "' and auto_register is false: register it (with its own imports as references) first, or"
                    + " set auto_register: true";
        }
        return what + " was refused for subject '" + file.getName() + "': " + e.getMessage();
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
