package io.etl.core.internal.dsl;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.RetrySection;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.core.error.DeadLetterHandler;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.internal.runtime.PipelineRunner;
import io.etl.core.sink.Sink;
import io.etl.core.source.Source;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;

/** A finished definition: validated by {@link #build()}, run by {@link PipelineRunner}. */
public final class PipelineDefinition implements Pipeline {

    private final PipelineDraft draft;
    private volatile boolean built;

    PipelineDefinition(PipelineDraft draft) {
        this.draft = draft;
    }

    @Override
    public String name() {
        return draft.name;
    }

    public Source<?> source() {
        return draft.source;
    }

    public List<OperatorSpec> operators() {
        return List.copyOf(draft.operators);
    }

    public TerminalSpec terminal() {
        return draft.terminal;
    }

    public DeadLetterHandler deadLetter() {
        return draft.deadLetter;
    }

    /** Every distinct sink, by name, in definition order. */
    public List<Sink<Object, ?>> sinks() {
        Map<Sink<Object, ?>, Boolean> seen = new IdentityHashMap<>();
        List<Sink<Object, ?>> out = new ArrayList<>();
        TerminalSpec t = draft.terminal;
        for (BranchSpec b : t.branches()) {
            if (b.sink() != null && seen.put(b.sink(), Boolean.TRUE) == null) {
                out.add(b.sink());
            }
        }
        if (t.otherwise() != null && seen.put(t.otherwise(), Boolean.TRUE) == null) {
            out.add(t.otherwise());
        }
        if (t.sink() != null && seen.put(t.sink(), Boolean.TRUE) == null) {
            out.add(t.sink());
        }
        return out;
    }

    @Override
    public Pipeline build() {
        List<ConfigProblem> problems = new ArrayList<>();
        String where = "pipeline '" + draft.name + "'";
        Set<String> stageNames = new HashSet<>();
        for (OperatorSpec op : draft.operators) {
            if (!stageNames.add(op.name())) {
                problems.add(new ConfigProblem(where, "duplicate operator name '" + op.name() + "'"));
            }
        }
        TerminalSpec t = draft.terminal;
        if (t.isSplit()) {
            String split = where + " split '" + t.splitName() + "'";
            if (!stageNames.add(t.splitName())) {
                problems.add(new ConfigProblem(where, "duplicate operator name '" + t.splitName() + "'"));
            }
            if (t.branches().isEmpty()) {
                problems.add(new ConfigProblem(split, "has no branches"));
            }
            for (BranchSpec b : t.branches()) {
                if (b.name() == null || b.name().isBlank()) {
                    problems.add(new ConfigProblem(split, "a branch has no name"));
                } else if (!stageNames.add(b.name())) {
                    problems.add(new ConfigProblem(split, "duplicate branch name '" + b.name() + "'"));
                }
                if (b.sink() == null) {
                    problems.add(new ConfigProblem(split + " branch '" + b.name() + "'", "has no sink"));
                }
            }
            if (t.otherwise() == null && !t.dropUnmatched()) {
                problems.add(new ConfigProblem(split, "must end with otherwise(sink) or dropUnmatched()"));
            }
        } else if (t.sink() == null) {
            problems.add(new ConfigProblem(where, "to(..) was given no sink"));
        }
        Map<String, Sink<Object, ?>> byName = new LinkedHashMap<>();
        for (Sink<Object, ?> sink : sinks()) {
            Sink<Object, ?> other = byName.putIfAbsent(sink.name(), sink);
            if (other != null) {
                problems.add(new ConfigProblem(where, "two different sinks are named '" + sink.name() + "'"));
            }
            if (PipelineConfig.DEAD_LETTER.equals(sink.name())) {
                problems.add(new ConfigProblem(
                        where,
                        "a sink may not be named '" + PipelineConfig.DEAD_LETTER
                                + "': that name belongs to the dead-letter sink"));
            }
            if (RetrySection.NAME.equals(sink.name())) {
                problems.add(new ConfigProblem(
                        where,
                        "a sink may not be named '" + RetrySection.NAME
                                + "': that name belongs to the sink that writes the retry topics"));
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        built = true;
        return this;
    }

    @Override
    public RunningPipeline start(PipelineConfig config, MeterRegistry registry) {
        if (!built) {
            build();
        }
        // every configuration record checked itself when it was built, in code as from a file
        checkRetries(config);
        checkStageSettings(config);
        checkDeadLetters(config);
        // metrics.enabled: false: every meter goes to a registry with no backend, so none reaches the caller's
        return PipelineRunner.start(this, config, config.metrics().enabled() ? registry : new CompositeMeterRegistry());
    }

    /** Every key of {@code pipeline.stages} names an asynchronous stage of this pipeline. */
    private void checkStageSettings(PipelineConfig config) {
        List<String> async = new ArrayList<>();
        for (OperatorSpec op : draft.operators) {
            if (op.kind().isAsync()) {
                async.add(op.name());
            }
        }
        List<ConfigProblem> problems = new ArrayList<>();
        for (String stage : config.pipeline().stages().keySet()) {
            if (!async.contains(stage)) {
                problems.add(new ConfigProblem(
                        "pipeline.stages." + stage,
                        "pipeline '" + draft.name + "' has no asynchronous stage of this name"
                                + (async.isEmpty()
                                        ? ""
                                        : " (its asynchronous stages: " + String.join(", ", async) + ")")));
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
    }

    /** The stages whose policy under {@code config} is {@code dead_letter}, each named as its setting is. */
    List<String> deadLetterStages(PipelineConfig config) {
        List<String> stages = new ArrayList<>();
        ErrorPolicy operatorDefault = config.pipeline().onError();
        for (OperatorSpec op : draft.operators) {
            if (op.kind().isAsync()) {
                if (op.policyUnder(config.pipeline()) == ErrorPolicy.DEAD_LETTER) {
                    stages.add("asynchronous stage '" + op.name() + "'");
                }
            } else if (op.policy() == ErrorPolicy.DEAD_LETTER) {
                stages.add("operator '" + op.name() + "' (.onError)");
            } else if (op.policy() == null && operatorDefault == ErrorPolicy.DEAD_LETTER) {
                stages.add("operator '" + op.name() + "' (pipeline.on_error)");
            }
        }
        if (draft.terminal.isSplit() && operatorDefault == ErrorPolicy.DEAD_LETTER) {
            stages.add("split '" + draft.terminal.splitName() + "' (pipeline.on_error)");
        }
        if (draft.source.errorPolicy() == ErrorPolicy.DEAD_LETTER) {
            stages.add(
                    "source '" + draft.source.name() + "' (source." + draft.source.name() + ".<connector>.on_error)");
        }
        for (Sink<Object, ?> sink : sinks()) {
            if (sink.errorPolicy() == ErrorPolicy.DEAD_LETTER) {
                stages.add("sink '" + sink.name() + "' (sinks." + sink.name() + ".<connector>.on_error)");
            }
        }
        if (config.retry().isPresent()
                && config.retry().get().levels().then() == ErrorPolicy.DEAD_LETTER
                && usesRetry(config)) {
            stages.add("retry topics (" + RetrySection.NAME + ".then)");
        }
        return stages;
    }

    /** The operators and splits whose policy under {@code config} is {@code retry}, each named as its setting is. */
    List<String> retryStages(PipelineConfig config) {
        List<String> stages = new ArrayList<>();
        ErrorPolicy operatorDefault = config.pipeline().onError();
        for (OperatorSpec op : draft.operators) {
            if (op.policy() == ErrorPolicy.RETRY) {
                stages.add("operator '" + op.name() + "' (.onError)");
            } else if (op.policy() == null && operatorDefault == ErrorPolicy.RETRY) {
                stages.add("operator '" + op.name() + "' (pipeline.on_error)");
            }
        }
        if (draft.terminal.isSplit() && operatorDefault == ErrorPolicy.RETRY) {
            stages.add("split '" + draft.terminal.splitName() + "' (pipeline.on_error)");
        }
        return stages;
    }

    /** Whether some stage sends records to the retry topics under {@code config}. */
    public boolean usesRetry(PipelineConfig config) {
        return !retryStages(config).isEmpty();
    }

    /**
     * Policy {@code retry} is for operators and split predicates, whose failures may pass (a service that is down):
     * a record that failed to decode or encode fails the same way every time. Every stage that uses it needs the
     * {@code retry} section.
     */
    private void checkRetries(PipelineConfig config) {
        List<ConfigProblem> problems = new ArrayList<>();
        String reason = "policy retry is for operators and split predicates: a record that fails here fails the same"
                + " way when it is tried again (use dead_letter, then redrive once the cause is fixed)";
        if (draft.source.errorPolicy() == ErrorPolicy.RETRY) {
            problems.add(new ConfigProblem("source." + draft.source.name() + ".<connector>.on_error", reason));
        }
        for (Sink<Object, ?> sink : sinks()) {
            if (sink.errorPolicy() == ErrorPolicy.RETRY) {
                problems.add(new ConfigProblem("sinks." + sink.name() + ".<connector>.on_error", reason));
            }
        }
        if (config.retry().isEmpty()) {
            for (String stage : retryStages(config)) {
                problems.add(new ConfigProblem(
                        stage,
                        "policy retry needs a top-level retry section (retry: {topics: [{after: 10s}], kafka:"
                                + " {brokers: ...}})"));
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
    }

    /** Whether some stage sends records to the dead-letter destination under {@code config}. */
    public boolean usesDeadLetter(PipelineConfig config) {
        return !deadLetterStages(config).isEmpty();
    }

    /**
     * Every stage with policy {@code dead_letter} needs somewhere to send records: the {@code dead_letter} section
     * or a handler in code, not both.
     */
    private void checkDeadLetters(PipelineConfig config) {
        if (draft.deadLetter != null && config.deadLetter().isPresent()) {
            throw ConfigException.of(
                    PipelineConfig.DEAD_LETTER,
                    "pipeline '" + draft.name + "' has both a dead_letter"
                            + " section and a dead-letter handler in code (Pipeline.named(..).deadLetter(..)); keep one");
        }
        if (draft.deadLetter != null || config.deadLetter().isPresent()) {
            return;
        }
        List<ConfigProblem> problems = new ArrayList<>();
        for (String stage : deadLetterStages(config)) {
            problems.add(new ConfigProblem(
                    stage,
                    "policy dead_letter needs a top-level dead_letter section"
                            + " (dead_letter: {kafka: {brokers: ..., topic: ...}}) or a dead-letter handler"
                            + " (Pipeline.named(..).deadLetter(..))"));
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
    }

    @Override
    public RunningPipeline start(PipelineConfig config) {
        return start(config, new SimpleMeterRegistry());
    }

    @Override
    public PipelineResult run(PipelineConfig config) {
        return run(config, new SimpleMeterRegistry());
    }

    @Override
    public PipelineResult run(PipelineConfig config, MeterRegistry registry) {
        RunningPipeline running = start(config, registry);
        try {
            return running.result().get();
        } catch (InterruptedException e) {
            // the caller asked its thread to stop: drain the pipeline, then keep the flag set
            PipelineResult result = running.stopAndWait(config.pipeline().shutdownTimeout());
            Thread.currentThread().interrupt();
            return result;
        } catch (ExecutionException e) {
            throw new IllegalStateException("pipeline '" + running.name() + "' ended abnormally", e.getCause());
        }
    }
}
