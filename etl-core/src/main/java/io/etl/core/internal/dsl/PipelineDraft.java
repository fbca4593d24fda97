package io.etl.core.internal.dsl;

import io.etl.core.PipelineBuilder;
import io.etl.core.RecordStream;
import io.etl.core.error.DeadLetterHandler;
import io.etl.core.source.Source;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The mutable state behind a definition while the DSL is being called. */
public final class PipelineDraft implements PipelineBuilder {

    final String name;
    DeadLetterHandler deadLetter;
    Source<?> source;
    final List<OperatorSpec> operators = new ArrayList<>();
    TerminalSpec terminal;
    private final Map<String, Integer> generated = new HashMap<>();

    private PipelineDraft(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    public static PipelineBuilder start(String name) {
        return new PipelineDraft(name);
    }

    @Override
    public PipelineBuilder deadLetter(DeadLetterHandler handler) {
        this.deadLetter = handler;
        return this;
    }

    @Override
    public <T> RecordStream<T> from(Source<T> source) {
        if (this.source != null) {
            throw new IllegalStateException("pipeline '" + name + "' already has a source");
        }
        this.source = Objects.requireNonNull(source, "source");
        return new RecordStreamImpl<>(this, 0);
    }

    /** A stable generated name: {@code map-1}, {@code map-2}, ... in definition order. */
    String generatedName(String kind) {
        int n = generated.merge(kind, 1, Integer::sum);
        return kind + "-" + n;
    }
}
