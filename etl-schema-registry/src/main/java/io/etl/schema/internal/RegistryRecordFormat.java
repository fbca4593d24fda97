package io.etl.schema.internal;

import io.etl.runtime.tools.RecordFormat;

/**
 * What the tools' registry formats share: a name, and the command's settings, read once when the command opens
 * the format (or at its first value, for a caller that does not open it). A subclass forgets the decoder and
 * encoder of an earlier command in {@link #reset()} and builds them from {@link #settings} when first needed.
 */
abstract class RegistryRecordFormat implements RecordFormat {

    private final String name;
    private final String label;
    private ToolFormatSettings settings;

    /**
     * @param name  what {@code --format} calls it
     * @param label the format in messages ("Avro")
     */
    RegistryRecordFormat(String name, String label) {
        this.name = name;
        this.label = label;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final void open(Context context) {
        settings = ToolFormatSettings.of(context, label);
        reset();
    }

    /** The settings of the command {@code context} belongs to. */
    final ToolFormatSettings settings(Context context) {
        if (settings == null) {
            open(context);
        }
        return settings;
    }

    /** Forgets what was built for an earlier command. */
    abstract void reset();
}
