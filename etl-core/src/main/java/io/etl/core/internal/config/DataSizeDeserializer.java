package io.etl.core.internal.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import io.etl.core.config.DataSize;
import java.io.IOException;

/**
 * Reads a {@link DataSize} from {@code 512KiB}, {@code 1MB}, ... (see {@link DataSize#parse}) or a plain
 * whole number of bytes. Bad values go to the context's problem handler, which records them and lets
 * parsing continue.
 */
final class DataSizeDeserializer extends StdScalarDeserializer<DataSize> {

    static final String NOT_A_SIZE = "is not a size; use a whole number of bytes or one with a unit:"
            + " B, KB, KiB, MB, MiB, GB, GiB (for example 512KiB or 1MB)";

    DataSizeDeserializer() {
        super(DataSize.class);
    }

    @Override
    public DataSize deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        JsonToken token = p.currentToken();
        if (token == JsonToken.VALUE_STRING) {
            String text = p.getText();
            try {
                return DataSize.parse(text);
            } catch (IllegalArgumentException e) {
                return (DataSize) ctxt.handleWeirdStringValue(DataSize.class, text, NOT_A_SIZE);
            }
        }
        if (token == JsonToken.VALUE_NUMBER_INT
                && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER
                && p.getLongValue() >= 0) {
            return DataSize.ofBytes(p.getLongValue());
        }
        if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
            return (DataSize) ctxt.handleWeirdNumberValue(DataSize.class, p.getNumberValue(), NOT_A_SIZE);
        }
        return (DataSize) ctxt.handleUnexpectedToken(DataSize.class, p);
    }
}
