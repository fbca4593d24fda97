package io.etl.core.internal.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.std.NumberDeserializers;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import java.io.IOException;

/**
 * Jackson's own integer deserializer, except that a fraction ({@code 2.5}) or an out-of-range number goes to
 * the problem handler like any other bad value, instead of ending the whole section with an exception.
 */
final class WholeNumberDeserializer extends StdScalarDeserializer<Object> {

    private final JsonDeserializer<?> standard;
    private final boolean isLong;

    WholeNumberDeserializer(Class<?> type) {
        super(type);
        this.standard = NumberDeserializers.find(type, type.getName());
        this.isLong = type == Long.class || type == long.class;
    }

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        JsonToken token = p.currentToken();
        if (token == JsonToken.VALUE_NUMBER_FLOAT) {
            return ctxt.handleWeirdNumberValue(handledType(), p.getNumberValue(), "not a whole number");
        }
        if (token == JsonToken.VALUE_NUMBER_INT) {
            JsonParser.NumberType type = p.getNumberType();
            boolean fits = type == JsonParser.NumberType.INT || (isLong && type == JsonParser.NumberType.LONG);
            if (!fits) {
                return ctxt.handleWeirdNumberValue(handledType(), p.getNumberValue(), "out of range");
            }
        }
        return standard.deserialize(p, ctxt);
    }

    @Override
    public Object getNullValue(DeserializationContext ctxt) throws JsonMappingException {
        return standard.getNullValue(ctxt);
    }
}
