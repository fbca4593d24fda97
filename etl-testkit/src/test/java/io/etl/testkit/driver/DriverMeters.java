package io.etl.testkit.driver;

import io.etl.core.metrics.EtlMetrics;

/** Reads one meter of a driver's registry, so that a test asserts on the value rather than on the lookup. */
final class DriverMeters {

    private DriverMeters() {}

    /** The current value of gauge {@code name} with {@code tags} (key, value, key, value...). */
    static double gauge(PipelineTestDriver driver, String name, String... tags) {
        return driver.meterRegistry().get(name).tags(tags).gauge().value();
    }

    /** The count of counter {@code name} with {@code tags} (key, value, key, value...). */
    static double counter(PipelineTestDriver driver, String name, String... tags) {
        return driver.meterRegistry().get(name).tags(tags).counter().count();
    }

    /** How many records stage {@code stage} dropped for {@code reason} ({@code etl_records_dropped_total}). */
    static double dropped(PipelineTestDriver driver, String stage, String reason) {
        return counter(driver, EtlMetrics.RECORDS_DROPPED, EtlMetrics.TAG_STAGE, stage, EtlMetrics.TAG_REASON, reason);
    }
}
