package io.etl.core.internal.chain;

import io.etl.core.RecordProcessor;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.internal.dsl.OperatorSpec;
import io.micrometer.core.instrument.Counter;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Function;

/** Runs one user operator and pushes what it produces to the next node. */
final class OperatorNode extends Node {

    private final OperatorSpec.Kind kind;
    private final String name;
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
        switch (kind) {
            case FILTER -> filter(value);
            case MAP -> map(value);
            case FLAT_MAP -> flatMap(value);
            case PEEK -> peek(value);
            case PROCESS -> process(value);
        }
    }

    private void filter(Object value) {
        boolean keep;
        try {
            keep = predicate.test(value, ctx.meta);
        } catch (RuntimeException e) {
            ctx.operatorFailed(name, policy, value, e);
            return;
        }
        if (keep) {
            next.push(value);
        } else {
            filtered.increment();
        }
    }

    private void map(Object value) {
        Object out;
        try {
            out = mapper.apply(value, ctx.meta);
        } catch (RuntimeException e) {
            ctx.operatorFailed(name, policy, value, e);
            return;
        }
        if (out != null) {
            next.push(out);
        } else {
            filtered.increment();
        }
    }

    private void flatMap(Object value) {
        Iterable<?> outs;
        try {
            outs = flatMapper.apply(value);
        } catch (RuntimeException e) {
            ctx.operatorFailed(name, policy, value, e);
            return;
        }
        if (outs == null) {
            filtered.increment();
            return;
        }
        // a lazy Iterable runs user code while it is iterated: its errors go to this stage's policy too
        // (outputs pushed before the error stay pushed)
        java.util.Iterator<?> it;
        try {
            it = outs.iterator();
        } catch (RuntimeException e) {
            ctx.operatorFailed(name, policy, value, e);
            return;
        }
        while (true) {
            Object out;
            try {
                if (!it.hasNext()) {
                    return;
                }
                out = it.next();
            } catch (RuntimeException e) {
                ctx.operatorFailed(name, policy, value, e);
                return;
            }
            next.push(out);
        }
    }

    private void peek(Object value) {
        try {
            action.accept(value);
        } catch (RuntimeException e) {
            ctx.operatorFailed(name, policy, value, e);
            return;
        }
        next.push(value);
    }

    private void process(Object value) {
        try {
            processor.process(value, ctx.meta, emitter);
        } catch (PipelineStop stop) {
            throw stop;
        } catch (Exception e) {
            ctx.operatorFailed(name, policy, value, e);
        }
    }
}
