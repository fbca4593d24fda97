package io.etl.core.internal.chain;

import io.etl.core.RecordProcessor;
import io.etl.core.error.DeadLetter;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.internal.dsl.OperatorSpec;
import io.micrometer.core.instrument.Counter;
import java.util.Iterator;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Function;

/** Runs one user operator and pushes what it produces to the next node. */
final class OperatorNode extends Node {

    private final OperatorSpec.Kind kind;
    private final String name;
    private final String dlqStage;
    private final ErrorPolicy policy;
    private final RecordContext ctx;
    private final Node next;
    private final Counter filtered;
    private final BiPredicate<Object, Object> predicate;
    private final BiFunction<Object, Object, Object> mapper;
    private final Function<Object, Iterable<?>> flatMapper;
    private final Consumer<Object> action;
    private final RecordProcessor<Object, Object> processor;
    private final RecordProcessor.Emitter<Object> emitter;

    @SuppressWarnings("unchecked")
    OperatorNode(OperatorSpec spec, ErrorPolicy policy, RecordContext ctx, Node next, Counter filtered) {
        this.kind = spec.kind();
        this.name = spec.name();
        this.dlqStage = DeadLetter.operatorStage(spec.name());
        this.policy = policy;
        this.ctx = ctx;
        this.next = next;
        this.filtered = filtered;
        Object f = spec.function();
        this.predicate = kind == OperatorSpec.Kind.FILTER ? (BiPredicate<Object, Object>) f : null;
        this.mapper = kind == OperatorSpec.Kind.MAP ? (BiFunction<Object, Object, Object>) f : null;
        this.flatMapper = kind == OperatorSpec.Kind.FLAT_MAP ? (Function<Object, Iterable<?>>) f : null;
        this.action = kind == OperatorSpec.Kind.PEEK ? (Consumer<Object>) f : null;
        this.processor = kind == OperatorSpec.Kind.PROCESS ? (RecordProcessor<Object, Object>) f : null;
        this.emitter = next::push;
    }

    @Override
    public void push(Object value) {
        Object result;
        int attempt = 1;
        while (true) {
            try {
                result = call(value);
                break;
            } catch (PipelineStop stop) {
                throw stop;
            } catch (Exception e) {
                if (ctx.retryAfter(e, attempt)) {
                    attempt++;
                    continue;
                }
                ctx.operatorFailed(name, dlqStage, policy, value, e, attempt);
                return;
            }
        }
        switch (kind) {
            case FILTER -> {
                if ((Boolean) result) {
                    next.push(value);
                } else {
                    filtered.increment();
                }
            }
            case MAP -> {
                if (result != null) {
                    next.push(result);
                } else {
                    filtered.increment();
                }
            }
            case FLAT_MAP -> {
                if (result == null) {
                    filtered.increment();
                } else {
                    pushAll(value, (Iterable<?>) result, attempt);
                }
            }
            case PEEK -> next.push(value);
            default -> {
                // PROCESS: the processor emitted its outputs itself
            }
        }
    }

    /**
     * Pushes every output of a {@code flatMap}. A lazy {@code Iterable} runs user code while it is iterated: its
     * errors go to this stage's policy too (outputs pushed before the error stay pushed).
     */
    private void pushAll(Object value, Iterable<?> outs, int attempt) {
        Iterator<?> it;
        try {
            it = outs.iterator();
        } catch (RuntimeException e) {
            ctx.operatorFailed(name, dlqStage, policy, value, e, attempt);
            return;
        }
        while (true) {
            Object out;
            try {
                if (!it.hasNext()) {
                    return;
                }
                out = it.next();
            } catch (PipelineStop stop) {
                throw stop;
            } catch (RuntimeException e) {
                ctx.operatorFailed(name, dlqStage, policy, value, e, attempt);
                return;
            }
            next.push(out);
        }
    }

    /**
     * Calls the user function once: the filter's verdict, the mapped value, the flat-mapped values, or nothing
     * (peek, process; a processor emits to the next node itself, so a retried one may emit twice).
     */
    private Object call(Object value) throws Exception {
        return switch (kind) {
            case FILTER -> predicate.test(value, ctx.meta) ? Boolean.TRUE : Boolean.FALSE;
            case MAP -> mapper.apply(value, ctx.meta);
            case FLAT_MAP -> flatMapper.apply(value);
            case PEEK -> {
                action.accept(value);
                yield null;
            }
            case PROCESS -> {
                processor.process(value, ctx.meta, emitter);
                yield null;
            }
            case MAP_ASYNC, FLAT_MAP_ASYNC, FILTER_ASYNC, MAP_CONCURRENT ->
                throw new IllegalStateException("asynchronous operator '" + name + "' compiled as a synchronous one");
        };
    }
}
