package io.etl.core.internal.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import java.io.IOException;
import java.time.Duration;

/**
 * Reads a {@link Duration} from {@code 250ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 2d} or ISO-8601.
 * A bare number is rejected (its unit would be a guess). Bad values go to the context's problem handler,
 * which records them and lets parsing continue.
 */
final class DurationDeserializer extends StdScalarDeserializer<Duration> {

    DurationDeserializer() {
        super(Duration.class);
    }

    @Override
    public Duration deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        JsonToken token = p.currentToken();
        if (token == JsonToken.VALUE_STRING) {
            String text = p.getText();
            DurationParser.Result result = DurationParser.parse(text);
            return result.duration() != null
                    ? result.duration()
                    : (Duration) ctxt.handleWeirdStringValue(Duration.class, text, result.problem());
        }
        if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
            return (Duration) ctxt.handleWeirdNumberValue(Duration.class, p.getNumberValue(), DurationParser.NO_UNIT);
        }
        return (Duration) ctxt.handleUnexpectedToken(Duration.class, p);
    }
}
