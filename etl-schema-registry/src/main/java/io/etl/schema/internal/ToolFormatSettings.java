package io.etl.schema.internal;

import io.etl.core.error.ConfigException;
import io.etl.core.record.RecordMeta;
import io.etl.kafka.common.FormatContext;
import io.etl.kafka.common.SchemaRegistryConfig;
import io.etl.kafka.common.SchemaRegistryConfig.SubjectStrategy;
import io.etl.kafka.sink.KafkaSinkConfig;
import io.etl.kafka.source.KafkaSourceConfig;
import io.etl.runtime.tools.RecordFormat;
import io.etl.schema.SchemaDecoder;
import io.etl.schema.SchemaEncoder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the tools' registry formats ({@code --format avro}, {@code --format json-schema}, and the same as
 * {@code --key-format}) take from a command: the registry of the {@code --config} section, or
 * {@code --format-option registry=URL}; whether {@code produce} may register its schema ({@code auto_register}); and
 * the schema {@code produce} writes with ({@code schema=FILE}, or {@code key_schema=FILE} for keys; else the latest
 * version of the topic's value or key subject).
 */
final class ToolFormatSettings {

    static final String REGISTRY = "registry";
    static final String SCHEMA = "schema";
    static final String KEY_SCHEMA = "key_schema";
    static final String AUTO_REGISTER = "auto_register";
    private static final Set<String> KNOWN = Set.of(REGISTRY, SCHEMA, KEY_SCHEMA, AUTO_REGISTER);
    /** Where messages about the registry block point: the tools do not know the section's name. */
    private static final String PATH = "kafka";

    private final String format;
    private final boolean key;
    private final String topic;
    private final Map<String, String> options;
    private final FormatContext context;
    private RegistryClient client;

    private ToolFormatSettings(
            String format, boolean key, String topic, Map<String, String> options, FormatContext context) {
        this.format = format;
        this.key = key;
        this.topic = topic;
        this.options = options;
        this.context = context;
    }

    /**
     * The settings of {@code command} for the format {@code format} (for messages: "Avro").
     *
     * @throws IllegalArgumentException for an unknown option, a wrong value, or no registry at all
     */
    static ToolFormatSettings of(RecordFormat.Context command, String format) {
        Set<String> unknown = new TreeSet<>(command.options().keySet());
        unknown.removeAll(KNOWN);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(
                    "unknown --format-option " + unknown + "; known: " + new TreeSet<>(KNOWN));
        }
        SchemaRegistryConfig registry = registryOf(command);
        String autoRegister = command.options().get(AUTO_REGISTER);
        if (autoRegister != null) {
            registry = registry.withAutoRegister(parseBoolean(autoRegister));
        }
        FormatContext context = new FormatContext(
                (command.key() ? "--key-format " : "--format ") + format.toLowerCase(Locale.ROOT),
                PATH,
                List.of(command.topic()),
                registry,
                new SimpleMeterRegistry(),
                null);
        return new ToolFormatSettings(format, command.key(), command.topic(), command.options(), context);
    }

    private static SchemaRegistryConfig registryOf(RecordFormat.Context command) {
        SchemaRegistryConfig section = null;
        if (command.section() instanceof KafkaSourceConfig source) {
            section = source.schemaRegistry();
        } else if (command.section() instanceof KafkaSinkConfig sink) {
            section = sink.schemaRegistry();
        }
        String urls = command.options().get(REGISTRY);
        if (urls == null) {
            if (section == null) {
                throw new IllegalArgumentException("needs a schema registry: a --config section with a schema_registry"
                        + " block, or --format-option " + REGISTRY + "=URL");
            }
            return section;
        }
        List<String> list = Arrays.stream(urls.split(","))
                .map(String::strip)
                .filter(u -> !u.isEmpty())
                .toList();
        SchemaRegistryConfig.Builder builder =
                section == null ? SchemaRegistryConfig.custom() : SchemaRegistryConfig.from(section);
        try {
            return builder.url(list).build();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(REGISTRY + "=" + urls + ": " + e.getMessage(), e);
        }
    }

    private static boolean parseBoolean(String value) {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(AUTO_REGISTER + " is true or false, got '" + value + "'");
        };
    }

    /** A client of the command's registry, for the writer schema {@code produce} looks up; made once. */
    RegistryClient client() {
        if (client == null) {
            client = RegistryConnection.open(context, format).client();
        }
        return client;
    }

    /** Opens {@code decoder} for {@code consume}, for keys when the command's context is for keys. */
    <T extends SchemaDecoder<?>> T open(T decoder) {
        if (key && decoder instanceof FramedDecoder<?, ?> framed) {
            framed.decodeKeys();
        }
        decoder.open(context);
        return decoder;
    }

    /**
     * Opens {@code encoder} for {@code produce}, for keys when the command's context is for keys; a subject it may
     * not register in says how the command can.
     *
     * @throws IllegalArgumentException when the registry refuses the schema or the subject
     */
    <T extends SchemaEncoder<?>> T open(T encoder) {
        if (key && encoder instanceof FramedEncoder<?, ?, ?> framed) {
            framed.encodeKeys();
        }
        try {
            encoder.open(context);
        } catch (ConfigException e) {
            String hint = context.schemaRegistry().autoRegister()
                    ? ""
                    : " (--format-option " + AUTO_REGISTER + "=true registers the schema)";
            throw new IllegalArgumentException(e.getMessage() + hint, e);
        }
        return encoder;
    }

    /** The meta of {@code bytes} read or written by the tool: the topic, no headers, and {@code bytes} as a key's key. */
    RecordMeta meta(byte[] bytes) {
        return new RecordMeta(topic, 0, 0L, -1L, key ? bytes : null, List.of());
    }

    /**
     * The schema {@code produce} writes with, of type {@code type} ({@link SchemaText#AVRO}, ...): the file of the
     * {@code schema} option ({@code key_schema} for keys), else the latest version of the topic's value (or key)
     * subject.
     *
     * @throws IllegalArgumentException when the file cannot be read, or the subject has no version or cannot be
     *                                  named without a file
     * @throws RegistryException        when the registry does not answer
     */
    SchemaText writerSchema(String type) {
        String option = key ? KEY_SCHEMA : SCHEMA;
        String file = options.get(option);
        if (file != null) {
            try {
                return new SchemaText(type, Files.readString(Path.of(file), StandardCharsets.UTF_8));
            } catch (NoSuchFileException e) {
                throw new IllegalArgumentException(option + "=" + file + ": no such file", e);
            } catch (IOException e) {
                throw new IllegalArgumentException(option + "=" + file + ": " + e.getMessage(), e);
            }
        }
        SubjectStrategy strategy = context.schemaRegistry().subjectStrategy();
        if (strategy != SubjectStrategy.TOPIC) {
            throw new IllegalArgumentException(
                    "subject_strategy " + strategy.name().toLowerCase(Locale.ROOT)
                            + " names subjects after the record, so which schema to write with is not known: give it with"
                            + " --format-option " + option + "=FILE");
        }
        String subject = strategy.subject(topic, key, null);
        SubjectVersion latest;
        try {
            latest = client().version(subject, "latest");
        } catch (RegistryException e) {
            if (!e.notFound()) {
                throw e;
            }
            throw new IllegalArgumentException(
                    "cannot write " + format + " without a schema: subject '" + subject
                            + "' has no version to write with (" + e.getMessage() + "); give one with --format-option "
                            + option + "=FILE",
                    e);
        }
        if (!latest.schema().type().equals(type)) {
            throw new IllegalArgumentException(
                    "subject '" + subject + "' holds " + latest.schema().type() + " schemas, not " + type);
        }
        return latest.schema();
    }
}
