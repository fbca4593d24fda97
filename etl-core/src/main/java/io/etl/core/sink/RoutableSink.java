package io.etl.core.sink;

import java.util.function.Function;

/**
 * A sink that can also serve as the template of a route: one destination per value, picked by a function, each
 * opened on first use from this sink's settings. Connectors whose destinations are named (Kafka topics) implement it;
 * the pipeline reaches it through {@code RecordStream.route(..)}.
 *
 * <pre>{@code
 * .route("by-tenant", order -> "orders-" + order.tenant(), KafkaSink.from(config.sink("tenants")).json())
 * }</pre>
 *
 * @param <T> value type accepted
 * @param <M> message type written
 */
public interface RoutableSink<T, M> extends Sink<T, M> {

    /**
     * The sink that writes each value to the destination {@code destination} names for it, with this sink's encoder
     * and settings. Building it does no I/O; a destination the template does not allow, or that cannot be opened, is
     * a record error under the sink's {@code on_error} policy.
     *
     * @param name        the route's name: the sink's name in metrics, logs and dead letters
     * @param destination the destination of a value (a topic name); it runs on the pipeline thread for every value
     * @throws io.etl.core.error.ConfigException when this sink's settings are not a route template
     */
    Sink<T, M> route(String name, Function<? super T, String> destination);
}
