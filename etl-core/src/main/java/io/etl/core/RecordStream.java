package io.etl.core;

import io.etl.core.config.StageConfig;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.record.RecordMeta;
import io.etl.core.sink.RoutableSink;
import io.etl.core.sink.Sink;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A stream of records whose values have type {@code T}: the operator chain between a source and a
 * terminal, read top to bottom as the data flows. It is linear: each call returns the next stage; use
 * {@link #split} to fan out to several sinks.
 *
 * <pre>{@code
 * Pipeline.named("orders")
 *     .from(source)
 *     .filter("drop-test", o -> !o.isTest())
 *     .map("enrich", Order::enrich)
 *     .to(sink);
 * }</pre>
 *
 * <p>Every operator may be named; the name tags metrics and record errors. Unnamed operators get stable
 * generated names ({@code filter-1}, {@code map-2}, ...). An exception thrown by an operator is a record
 * error handled by {@link #onError} (default: the {@code pipeline.on_error} setting, itself {@code fail}).
 *
 * <p>With {@code pipeline.threads} at 1 (the default) every function given here is called on the one pipeline
 * thread. With {@code N > 1} the instance runs N loops, each with its own partitions, and the same function
 * objects are called from N threads at once (records of one partition still one after the other, on one
 * thread): a function that keeps state must then be thread-safe, or keep its state per key or partition in a
 * concurrent structure.
 *
 * @param <T> value type at this point of the chain
 */
public interface RecordStream<T> {

    /** Keeps the values for which {@code predicate} holds; the others are done at once. */
    RecordStream<T> filter(String name, Predicate<? super T> predicate);

    /** {@link #filter(String, Predicate)} with a generated name. */
    RecordStream<T> filter(Predicate<? super T> predicate);

    /** Keeps the values for which {@code predicate} holds, seeing their source metadata. */
    RecordStream<T> filterRecord(String name, BiPredicate<? super T, RecordMeta> predicate);

    /** Replaces each value by {@code mapper}'s result. A null result drops the record. */
    <R> RecordStream<R> map(String name, Function<? super T, ? extends R> mapper);

    /** {@link #map(String, Function)} with a generated name. */
    <R> RecordStream<R> map(Function<? super T, ? extends R> mapper);

    /** Replaces each value, seeing its source metadata. A null result drops the record. */
    <R> RecordStream<R> mapRecord(String name, BiFunction<? super T, RecordMeta, ? extends R> mapper);

    /** Replaces each value by zero or more values; the record is done when all of them are durable. */
    <R> RecordStream<R> flatMap(String name, Function<? super T, ? extends Iterable<? extends R>> mapper);

    /** {@link #flatMap(String, Function)} with a generated name. */
    <R> RecordStream<R> flatMap(Function<? super T, ? extends Iterable<? extends R>> mapper);

    /** The general record-level operator: value and metadata in, any number of outputs. */
    <R> RecordStream<R> process(String name, RecordProcessor<? super T, R> processor);

    /** Looks at each value without changing it. */
    RecordStream<T> peek(String name, Consumer<? super T> action);

    /** {@link #peek(String, Consumer)} with a generated name. */
    RecordStream<T> peek(Consumer<? super T> action);

    /**
     * Replaces each value by the result of an asynchronous call, with several records in flight: by default 16 at a
     * time, records of one key one after another ({@link StageConfig}). A null result drops the record; a call that
     * fails (its stage completes exceptionally, or it times out) goes to the stage's error policy after its retries.
     *
     * <pre>{@code
     * .mapAsync("enrich", order -> client.lookup(order.customerId()).thenApply(order::withCustomer))
     * .settings(StageConfig.custom().concurrency(200).timeout(Duration.ofSeconds(2)).build())
     * }</pre>
     *
     * @param name the stage's name: its metric tag and its key under {@code pipeline.stages}
     * @param call starts the call for one value; called on the pipeline thread, so it must not block
     */
    <R> RecordStream<R> mapAsync(String name, Function<? super T, ? extends CompletionStage<? extends R>> call);

    /**
     * {@link #mapAsync} whose call yields zero or more values; the record is done when all of them are durable.
     */
    <R> RecordStream<R> flatMapAsync(
            String name, Function<? super T, ? extends CompletionStage<? extends Iterable<? extends R>>> call);

    /** Keeps the values for which an asynchronous call yields true, with several records in flight. */
    RecordStream<T> filterAsync(String name, Function<? super T, ? extends CompletionStage<Boolean>> predicate);

    /**
     * {@link #mapAsync} for a blocking function: it runs on a bounded executor of the stage (virtual threads on a
     * JDK that has them, else as many platform threads as the stage's {@code concurrency}), and a call that
     * outlives the stage's timeout is interrupted.
     */
    <R> RecordStream<R> mapConcurrent(String name, Function<? super T, ? extends R> mapper);

    /**
     * Sets the settings of the asynchronous stage just added; {@code pipeline.stages.<name>} in the configuration
     * overrides them key by key.
     *
     * @throws IllegalStateException when the operator just added is not asynchronous
     */
    RecordStream<T> settings(StageConfig settings);

    /** Sets the error policy of the operator just added. */
    RecordStream<T> onError(ErrorPolicy policy);

    /** Ends the chain in one sink. */
    Pipeline to(Sink<? super T, ?> sink);

    /**
     * Ends the chain in a route: each value goes to the destination (topic) {@code destination} names for it, through
     * a sink opened on first use from {@code template}, whose settings (connection, encoder, which destinations are
     * allowed, how many may be open) every destination shares. A destination the template does not allow is a record
     * error under the template's {@code on_error} policy.
     *
     * <pre>{@code
     * .route("by-tenant", order -> "orders-" + order.tenant(), KafkaSink.from(config.sink("tenants")).json())
     * }</pre>
     *
     * @param name the route's name, unique within the pipeline: the sink's name in metrics and dead letters
     */
    Pipeline route(String name, Function<? super T, String> destination, RoutableSink<? super T, ?> template);

    /**
     * Ends the chain in named branches, each with its own sink, plus {@code otherwise} or
     * {@code dropUnmatched}.
     *
     * <pre>{@code
     * .split("by-region", s -> s
     *     .branch("eu", o -> o.region().equals("eu"), euSink)
     *     .branch("us", o -> o.region().equals("us"), usSink)
     *     .otherwise(restSink))
     * }</pre>
     */
    Pipeline split(String name, Function<Split<T>, Split.End<T>> branches);

    /**
     * Ends the chain in named branches chosen by a key: {@code key} is called once per value, and the value goes to
     * the branch registered for its key, whatever the number of branches, or to {@code otherwise}. A key function
     * that throws is handled as a predicate that throws: retried on a {@code RetryableException}, then the
     * pipeline's {@code on_error} policy.
     *
     * <pre>{@code
     * .split("by-region", Order::region, s -> s
     *     .branch("eu", "eu", euSink)
     *     .branch("us", "us", usSink)
     *     .otherwise(restSink))
     * }</pre>
     *
     * @param <K> key type
     */
    <K> Pipeline split(
            String name, Function<? super T, ? extends K> key, Function<KeyedSplit<T, K>, Split.End<T>> branches);
}
