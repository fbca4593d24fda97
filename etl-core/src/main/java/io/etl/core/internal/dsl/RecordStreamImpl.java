package io.etl.core.internal.dsl;

import io.etl.core.KeyedSplit;
import io.etl.core.Pipeline;
import io.etl.core.RecordProcessor;
import io.etl.core.RecordStream;
import io.etl.core.Split;
import io.etl.core.config.StageConfig;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.record.RecordMeta;
import io.etl.core.sink.RoutableSink;
import io.etl.core.sink.Sink;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/** A position in a draft's chain. Streams are linear: only the newest position may be extended. */
final class RecordStreamImpl<T> implements RecordStream<T> {

    private final PipelineDraft draft;
    private final int position;

    RecordStreamImpl(PipelineDraft draft, int position) {
        this.draft = draft;
        this.position = position;
    }

    private <R> RecordStream<R> add(OperatorSpec.Kind kind, String name, Object function) {
        checkCurrent();
        Objects.requireNonNull(function, "operator function");
        String n = name != null
                ? name
                : draft.generatedName(kind.name().toLowerCase(Locale.ROOT).replace('_', '-'));
        draft.operators.add(new OperatorSpec(kind, n, function, null, kind.isAsync() ? StageConfig.unset() : null));
        return new RecordStreamImpl<>(draft, position + 1);
    }

    private void checkCurrent() {
        if (draft.terminal != null) {
            throw new IllegalStateException("pipeline '" + draft.name + "' already ends in a terminal");
        }
        if (draft.operators.size() != position) {
            throw new IllegalStateException("pipeline '" + draft.name
                    + "': a stream can be extended only once; use split(..) to send values to several sinks");
        }
    }

    @Override
    public RecordStream<T> filter(String name, Predicate<? super T> predicate) {
        Objects.requireNonNull(predicate, "predicate");
        BiPredicate<T, RecordMeta> p = (v, m) -> predicate.test(v);
        return add(OperatorSpec.Kind.FILTER, name, p);
    }

    @Override
    public RecordStream<T> filter(Predicate<? super T> predicate) {
        return filter(null, predicate);
    }

    @Override
    public RecordStream<T> filterRecord(String name, BiPredicate<? super T, RecordMeta> predicate) {
        return add(OperatorSpec.Kind.FILTER, name, predicate);
    }

    @Override
    public <R> RecordStream<R> map(String name, Function<? super T, ? extends R> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        BiFunction<T, RecordMeta, R> f = (v, m) -> mapper.apply(v);
        return add(OperatorSpec.Kind.MAP, name, f);
    }

    @Override
    public <R> RecordStream<R> map(Function<? super T, ? extends R> mapper) {
        return map(null, mapper);
    }

    @Override
    public <R> RecordStream<R> mapRecord(String name, BiFunction<? super T, RecordMeta, ? extends R> mapper) {
        return add(OperatorSpec.Kind.MAP, name, mapper);
    }

    @Override
    public <R> RecordStream<R> flatMap(String name, Function<? super T, ? extends Iterable<? extends R>> mapper) {
        return add(OperatorSpec.Kind.FLAT_MAP, name, mapper);
    }

    @Override
    public <R> RecordStream<R> flatMap(Function<? super T, ? extends Iterable<? extends R>> mapper) {
        return flatMap(null, mapper);
    }

    @Override
    public <R> RecordStream<R> process(String name, RecordProcessor<? super T, R> processor) {
        return add(OperatorSpec.Kind.PROCESS, name, processor);
    }

    @Override
    public RecordStream<T> peek(String name, Consumer<? super T> action) {
        return add(OperatorSpec.Kind.PEEK, name, action);
    }

    @Override
    public RecordStream<T> peek(Consumer<? super T> action) {
        return peek(null, action);
    }

    @Override
    public <R> RecordStream<R> mapAsync(String name, Function<? super T, ? extends CompletionStage<? extends R>> call) {
        return add(OperatorSpec.Kind.MAP_ASYNC, requireStageName(name), Objects.requireNonNull(call, "call"));
    }

    @Override
    public <R> RecordStream<R> flatMapAsync(
            String name, Function<? super T, ? extends CompletionStage<? extends Iterable<? extends R>>> call) {
        return add(OperatorSpec.Kind.FLAT_MAP_ASYNC, requireStageName(name), Objects.requireNonNull(call, "call"));
    }

    @Override
    public RecordStream<T> filterAsync(String name, Function<? super T, ? extends CompletionStage<Boolean>> predicate) {
        return add(
                OperatorSpec.Kind.FILTER_ASYNC, requireStageName(name), Objects.requireNonNull(predicate, "predicate"));
    }

    @Override
    public <R> RecordStream<R> mapConcurrent(String name, Function<? super T, ? extends R> mapper) {
        return add(OperatorSpec.Kind.MAP_CONCURRENT, requireStageName(name), Objects.requireNonNull(mapper, "mapper"));
    }

    @Override
    public RecordStream<T> settings(StageConfig settings) {
        Objects.requireNonNull(settings, "settings");
        OperatorSpec last =
                position == 0 || draft.operators.size() != position ? null : draft.operators.get(position - 1);
        if (last == null || !last.kind().isAsync()) {
            throw new IllegalStateException("settings(..) applies to the asynchronous stage just added"
                    + " (mapAsync, flatMapAsync, filterAsync, mapConcurrent); there is none here");
        }
        draft.operators.set(position - 1, last.withStage(settings));
        return this;
    }

    /** An asynchronous stage is named: the name keys its settings under {@code pipeline.stages}. */
    private static String requireStageName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException(
                    "an asynchronous stage needs a name: it keys its settings under pipeline.stages.<name>");
        }
        return name;
    }

    @Override
    public RecordStream<T> onError(ErrorPolicy policy) {
        Objects.requireNonNull(policy, "policy");
        if (position == 0 || draft.operators.size() != position) {
            throw new IllegalStateException("onError(..) applies to the operator just added; there is none here");
        }
        draft.operators.set(position - 1, draft.operators.get(position - 1).withPolicy(policy));
        return this;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Pipeline to(Sink<? super T, ?> sink) {
        checkCurrent();
        draft.terminal = TerminalSpec.single((Sink<Object, ?>) sink);
        return new PipelineDefinition(draft);
    }

    @Override
    @SuppressWarnings("unchecked")
    public Pipeline route(String name, Function<? super T, String> destination, RoutableSink<? super T, ?> template) {
        checkCurrent();
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(template, "template");
        // the template accepts some supertype of T; every value reaching it is a T
        RoutableSink<Object, ?> sink = (RoutableSink<Object, ?>) template;
        Function<Object, String> of = (Function<Object, String>) destination;
        draft.terminal = TerminalSpec.single(sink.route(name, of));
        return new PipelineDefinition(draft);
    }

    @Override
    public Pipeline split(String name, Function<Split<T>, Split.End<T>> branches) {
        checkCurrent();
        Objects.requireNonNull(branches, "branches");
        SplitImpl<T> split = new SplitImpl<>(name != null ? name : draft.generatedName("split"));
        return ending(split, branches.apply(split));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <K> Pipeline split(
            String name, Function<? super T, ? extends K> key, Function<KeyedSplit<T, K>, Split.End<T>> branches) {
        checkCurrent();
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(branches, "branches");
        SplitImpl<T> split =
                new SplitImpl<>(name != null ? name : draft.generatedName("split"), (Function<Object, Object>) key);
        return ending(split, branches.apply(new KeyedSplitImpl<>(split)));
    }

    /** Ends the chain in {@code split}, which {@code end} must have completed. */
    private Pipeline ending(SplitImpl<T> split, Split.End<T> end) {
        if (end != split) {
            throw new IllegalArgumentException("split '" + split.name
                    + "' must end with otherwise(..) or dropUnmatched()" + " on the split it was given");
        }
        draft.terminal = split.toSpec();
        return new PipelineDefinition(draft);
    }
}
