package io.etl.runtime.tools;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.core.error.ConfigException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/** The formats the tools know: the built-in ones, then those registered with {@link ServiceLoader}. */
final class RecordFormats {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RecordFormats() {}

    /**
     * The format named {@code name} (any case).
     *
     * @throws IllegalArgumentException naming the formats there are
     */
    static RecordFormat named(String name) {
        Map<String, RecordFormat> all = all();
        RecordFormat format = all.get(name.toLowerCase(Locale.ROOT));
        if (format == null) {
            throw new IllegalArgumentException(
                    "unknown format '" + name + "'; known: " + String.join(", ", all.keySet())
                            + (all.containsKey("avro")
                                    ? ""
                                    : " (avro and json-schema come with etl-schema-registry on the class path)"));
        }
        return format;
    }

    /**
     * Opens {@code format} for a command ({@link RecordFormat#open}): a wrong setting is a usage error naming the
     * format, any other failure ends the command with its message.
     */
    static void open(RecordFormat format, RecordFormat.Context context) {
        try {
            format.open(context);
        } catch (ConfigException | ToolException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw ToolException.usage(option(context) + format.name() + ": " + e.getMessage());
        } catch (Exception e) {
            throw ToolException.failed(option(context) + format.name() + ": " + e.getMessage());
        }
    }

    private static String option(RecordFormat.Context context) {
        return context.key() ? "--key-format " : "--format ";
    }

    private static Map<String, RecordFormat> all() {
        Map<String, RecordFormat> formats = new LinkedHashMap<>();
        for (RecordFormat f : List.of(new Text(), new Json(), new Hex(), new Base64Format())) {
            formats.put(f.name(), f);
        }
        List<RecordFormat> added = new ArrayList<>();
        try {
            ServiceLoader.load(RecordFormat.class, Thread.currentThread().getContextClassLoader())
                    .forEach(added::add);
        } catch (ServiceConfigurationError e) {
            throw new IllegalStateException("a registered record format cannot be loaded: " + e.getMessage(), e);
        }
        for (RecordFormat f : added) {
            formats.putIfAbsent(f.name().toLowerCase(Locale.ROOT), f);
        }
        return formats;
    }

    /** UTF-8 text as it is. */
    static final class Text implements RecordFormat {
        @Override
        public String name() {
            return "text";
        }

        @Override
        public byte[] encode(String text, Context context) {
            return text.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String decode(byte[] value, Context context) {
            return new String(value, StandardCharsets.UTF_8);
        }
    }

    /** A JSON document, sent and printed as it is, checked to be one. */
    static final class Json implements RecordFormat {
        @Override
        public String name() {
            return "json";
        }

        @Override
        public byte[] encode(String text, Context context) throws Exception {
            JSON.readTree(text);
            return text.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String decode(byte[] value, Context context) throws Exception {
            JSON.readTree(value);
            return new String(value, StandardCharsets.UTF_8);
        }
    }

    /** Bytes as hexadecimal digits. */
    static final class Hex implements RecordFormat {
        @Override
        public String name() {
            return "hex";
        }

        @Override
        public byte[] encode(String text, Context context) {
            return HexFormat.of().parseHex(text.strip());
        }

        @Override
        public String decode(byte[] value, Context context) {
            return HexFormat.of().formatHex(value);
        }
    }

    /** Bytes in Base64. */
    static final class Base64Format implements RecordFormat {
        @Override
        public String name() {
            return "base64";
        }

        @Override
        public byte[] encode(String text, Context context) {
            return Base64.getDecoder().decode(text.strip());
        }

        @Override
        public String decode(byte[] value, Context context) {
            return Base64.getEncoder().encodeToString(value);
        }
    }
}
