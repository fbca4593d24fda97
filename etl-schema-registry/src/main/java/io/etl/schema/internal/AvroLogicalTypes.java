package io.etl.schema.internal;

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
        data.addLogicalTypeConversion(new Conversions.DecimalConversion());
        data.addLogicalTypeConversion(new Conversions.BigDecimalConversion());
        data.addLogicalTypeConversion(new Conversions.UUIDConversion());
        data.addLogicalTypeConversion(new TimeConversions.DateConversion());
        data.addLogicalTypeConversion(new TimeConversions.TimeMillisConversion());
        data.addLogicalTypeConversion(new TimeConversions.TimeMicrosConversion());
        data.addLogicalTypeConversion(new TimeConversions.TimestampMillisConversion());
        data.addLogicalTypeConversion(new TimeConversions.TimestampMicrosConversion());
        data.addLogicalTypeConversion(new TimeConversions.TimestampNanosConversion());
        data.addLogicalTypeConversion(new TimeConversions.LocalTimestampMillisConversion());
        data.addLogicalTypeConversion(new TimeConversions.LocalTimestampMicrosConversion());
        data.addLogicalTypeConversion(new TimeConversions.LocalTimestampNanosConversion());
        return data;
    }
}
