package io.etl.schema.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The meters of a registry client and its formats (Prometheus names):
 * {@code etl_schema_registry_requests_total{operation,outcome}} (outcome {@code ok}, {@code not_found},
 * {@code error}, {@code unavailable}), {@code etl_schema_registry_request_seconds{operation}} (one HTTP request,
 * failover included), and {@code etl_schema_cache_lookups_total{cache,result}} (cache {@code id} for decoders,
 * {@code schema} for encoders; result {@code hit} or {@code miss}).
 */
public final class RegistryMetrics {

    public static final String REQUESTS = "etl.schema.registry.requests";
    public static final String REQUEST = "etl.schema.registry.request";
    public static final String CACHE_LOOKUPS = "etl.schema.cache.lookups";

    public static final String TAG_OPERATION = "operation";
    public static final String TAG_OUTCOME = "outcome";
    public static final String TAG_CACHE = "cache";
    public static final String TAG_RESULT = "result";

    private final MeterRegistry registry;
    private final Tags tags;
    private final Map<String, Counter> requests = new ConcurrentHashMap<>();
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    public RegistryMetrics(MeterRegistry registry, Tags tags) {
        this.registry = registry;
        this.tags = tags;
    }

    /** Counts one request and its time. */
    void request(String operation, String outcome, long nanos) {
        requests.computeIfAbsent(
                        operation + '\u0000' + outcome,
                        k -> registry.counter(REQUESTS, tags.and(TAG_OPERATION, operation, TAG_OUTCOME, outcome)))
                .increment();
        timers.computeIfAbsent(
                        operation,
                        k -> Timer.builder(REQUEST)
                                .tags(tags.and(TAG_OPERATION, operation))
                                .register(registry))
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    /** The counter of lookups in {@code cache} ({@code id} or {@code schema}) with {@code result}. */
    public Counter cacheLookups(String cache, String result) {
        return registry.counter(CACHE_LOOKUPS, tags.and(TAG_CACHE, cache, TAG_RESULT, result));
    }
}
