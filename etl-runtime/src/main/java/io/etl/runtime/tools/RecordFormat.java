package io.etl.runtime.tools;

import java.util.Map;

/**
 * How {@code produce} turns a line of text into a record value (or key) and {@code consume} turns a value (or key)
 * back into text.
 * Built in: {@code text} (UTF-8 as it is), {@code json} (a JSON document as it is, checked to be one), {@code hex}
 * and {@code base64}. A module adds formats (a schema registry's, say) by registering an implementation with
 * {@link java.util.ServiceLoader} in {@code META-INF/services/io.etl.runtime.tools.RecordFormat}; the tools then
 * accept its {@link #name()} for {@code --format}.
 *
 * <pre>{@code
 * public final class UpperCaseFormat implements RecordFormat {
 *     public String name() { return "upper"; }
 *     public byte[] encode(String text, Context context) { return text.toUpperCase().getBytes(UTF_8); }
 *     public String decode(byte[] value, Context context) { return new String(value, UTF_8); }
 * }
 * }</pre>
 */
public interface RecordFormat {

    /** What {@code --format} calls it, e.g. {@code json}. */
    String name();

    /**
     * Called once before the first record with the command's context: a format that needs settings (a schema
     * registry, a schema) reads and checks them here. The default does nothing.
     *
     * @throws IllegalArgumentException when an option or the section's settings are wrong; the tool stops with the
     *                                  message as a usage error
     * @throws Exception                when the format cannot start (a registry that does not answer); the tool
     *                                  stops with the message
     */
    default void open(Context context) throws Exception {}

    /**
     * The value to produce for one line of input.
     *
     * @throws Exception when {@code text} is not a value of this format; the tool names the line
     */
    byte[] encode(String text, Context context) throws Exception;

    /**
     * The text to print for a value read (never null: tombstones are printed by the tool itself).
     *
     * @throws Exception when {@code value} is not of this format; the tool prints it as text instead, with a note
     */
    String decode(byte[] value, Context context) throws Exception;

    /**
     * What a format may need besides the value.
     *
     * @param topic   the topic written or read
     * @param options {@code --format-option KEY=VALUE} pairs
     * @param section the typed configuration record of the connector section the tool connected with (for example
     *                {@code KafkaSourceConfig}), or null with {@code --brokers}
     * @param key     whether the format turns record keys ({@code --key-format}) rather than values into text and
     *                back; a registry format then uses the topic's key subject
     */
    record Context(String topic, Map<String, String> options, Object section, boolean key) {

        /** Copies. */
        public Context {
            options = Map.copyOf(options);
        }

        /** A context for values. */
        public Context(String topic, Map<String, String> options, Object section) {
            this(topic, options, section, false);
        }

        /** This context for keys. */
        public Context forKeys() {
            return new Context(topic, options, section, true);
        }
    }
}
