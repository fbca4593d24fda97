package io.etl.schema.internal;

import java.util.List;
import org.apache.avro.Conversion;
import org.apache.avro.Conversions;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.generic.GenericData;

/**
 * The generic data model with Avro's standard logical-type conversions: {@code decimal} and {@code big-decimal} as
 * {@code BigDecimal}, {@code uuid} as {@code UUID}, {@code date} as {@code LocalDate}, {@code time-millis} and
 * {@code time-micros} as {@code LocalTime}, {@code timestamp-*} as {@code Instant} and {@code local-timestamp-*} as
 * {@code LocalDateTime}. Writing through it accepts either form of a field (a {@code BigDecimal} or the raw bytes,
 * an {@code Instant} or the raw {@code long}); reading through it gives the converted form. Shared and never changed
 * after it is built; {@link GenericData#get()} stays as Avro made it.
 */
public final class AvroLogicalTypes {

    /** The generic model with the conversions. */
    public static final GenericData DATA = withConversions();

    private AvroLogicalTypes() {}

    private static GenericData withConversions() {
        GenericData data = new GenericData();
        List.<Conversion<?>>of(
                        new Conversions.DecimalConversion(),
                        new Conversions.BigDecimalConversion(),
                        new Conversions.UUIDConversion(),
                        new TimeConversions.DateConversion(),
                        new TimeConversions.TimeMillisConversion(),
                        new TimeConversions.TimeMicrosConversion(),
                        new TimeConversions.TimestampMillisConversion(),
                        new TimeConversions.TimestampMicrosConversion(),
                        new TimeConversions.TimestampNanosConversion(),
                        new TimeConversions.LocalTimestampMillisConversion(),
                        new TimeConversions.LocalTimestampMicrosConversion(),
                        new TimeConversions.LocalTimestampNanosConversion())
                .forEach(data::addLogicalTypeConversion);
        return data;
    }
}
