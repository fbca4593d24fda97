package io.etl.kafka.sink.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.core.config.SinkPoolConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.kafka.sink.Change;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.sink.KafkaSinkBuilder;
import io.etl.kafka.sink.KafkaSinkConfig;
import io.etl.kafka.sink.MessageEncoder;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/** Builds {@link KafkaSinkImpl}s; checks a code-built configuration like a loaded one. No I/O. */
public final class KafkaSinkBuilderImpl implements KafkaSinkBuilder {

    private final String name;
    private final KafkaSinkConfig config;
    private final SinkPoolConfig pool;
    private boolean idempotencyHeader;

    public KafkaSinkBuilderImpl(String name, KafkaSinkConfig config, SinkPoolConfig pool) {
        this.name = Objects.requireNonNull(name, "name");
        this.config = Objects.requireNonNull(config, "config");
        this.pool = pool == null ? SinkPoolConfig.defaults() : pool;
        List<ConfigProblem> problems = ProducerSettings.check(config, path());
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
    }

    private String path() {
        return "sinks." + name + "." + KafkaSink.CONNECTOR;
    }

    @Override
    public KafkaSinkBuilder idempotencyKeyHeader() {
        this.idempotencyHeader = true;
        return this;
    }

    @Override
    public KafkaSink<byte[]> bytes() {
        return sink(Encoders.bytes(), idempotencyHeader);
    }

    @Override
    public KafkaSink<Object> json() {
        return sink(Encoders.json(), idempotencyHeader);
    }

    @Override
    public KafkaSink<Object> json(ObjectMapper mapper) {
        return sink(Encoders.json(Objects.requireNonNull(mapper, "mapper")), idempotencyHeader);
    }

    @Override
    public <T> KafkaSink<T> json(Function<? super T, ?> keyFn) {
        return sink(Encoders.json(Objects.requireNonNull(keyFn, "keyFn")), idempotencyHeader);
    }

    @Override
    public <T> KafkaSink<T> json(Function<? super T, ?> keyFn, ObjectMapper mapper) {
        return sink(
                Encoders.json(Objects.requireNonNull(keyFn, "keyFn"), Objects.requireNonNull(mapper, "mapper")),
                idempotencyHeader);
    }

    @Override
    public <T> KafkaSink<T> with(MessageEncoder<? super T> encoder) {
        return sink(Encoders.custom(Objects.requireNonNull(encoder, "encoder")), idempotencyHeader);
    }

    @Override
    public <T> KafkaSink<Change<T>> envelope() {
        return sink(
                Encoders.<Change<T>>envelope(Change::id, Change::delete, Change::document, config.annotations()),
                false);
    }

    @Override
    public <T> KafkaSink<T> envelope(Function<? super T, ?> idFn, Predicate<? super T> isDelete) {
        Objects.requireNonNull(idFn, "idFn");
        Objects.requireNonNull(isDelete, "isDelete");
        return sink(Encoders.<T>envelope(idFn, isDelete, v -> v, config.annotations()), false);
    }

    private <T> KafkaSink<T> sink(GuardedEncoder.Body<T> body, boolean header) {
        GuardedEncoder<T> encoder =
                new GuardedEncoder<>(config.topic(), config.maxMessageBytes().bytes(), header, body);
        return new KafkaSinkImpl<>(name, path(), config, pool, encoder);
    }
}
