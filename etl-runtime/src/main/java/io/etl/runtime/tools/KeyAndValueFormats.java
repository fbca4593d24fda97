package io.etl.runtime.tools;

/**
 * The formats a command reads or writes values and keys with ({@code --format}, {@code --key-format}), each with
 * the context it was opened with.
 */
record KeyAndValueFormats(
        RecordFormat values, RecordFormat.Context valueContext, RecordFormat keys, RecordFormat.Context keyContext) {

    /** Opens {@code values} with {@code context} and {@code keys} with its key twin ({@link RecordFormats#open}). */
    static KeyAndValueFormats open(RecordFormat values, RecordFormat keys, RecordFormat.Context context) {
        RecordFormat.Context keyContext = context.forKeys();
        RecordFormats.open(values, context);
        RecordFormats.open(keys, keyContext);
        return new KeyAndValueFormats(values, context, keys, keyContext);
    }
}
