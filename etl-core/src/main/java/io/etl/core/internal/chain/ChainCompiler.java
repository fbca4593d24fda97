package io.etl.core.internal.chain;

import io.etl.core.error.ErrorPolicy;
import io.etl.core.internal.dsl.BranchSpec;
import io.etl.core.internal.dsl.OperatorSpec;
import io.etl.core.internal.dsl.TerminalSpec;
import io.etl.core.internal.pool.SinkPool;
import io.etl.core.metrics.EtlMetrics;
import io.etl.core.sink.Sink;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** Turns a definition's operators and terminal into linked {@link Node}s. */
public final class ChainCompiler {

    private ChainCompiler() {}

    /**
     * @param pools  sink pools by sink identity
     * @param stages where the asynchronous operators' nodes join (their outcomes reach the pipeline thread there)
     * @return the first node
     */
    @SuppressWarnings("unchecked")
    public static Node compile(
            List<OperatorSpec> operators,
            TerminalSpec terminal,
            Map<Sink<Object, ?>, SinkPool<Object, ?>> pools,
            ErrorPolicy defaultPolicy,
            RecordContext ctx,
            MeterRegistry registry,
            Tags tags,
            AsyncStages stages) {
        Node next;
        if (terminal.isKeyed()) {
            Map<Object, Node> branches = new HashMap<>();
            for (BranchSpec spec : terminal.branches()) {
                Node branch = new SinkNode(pools.get(spec.sink()), ctx);
                for (Object key : spec.keys()) {
                    branches.put(key, branch);
                }
            }
            next = new KeyedSplitNode(
                    terminal.splitName(),
                    defaultPolicy,
                    ctx,
                    terminal.key(),
                    branches,
                    otherwise(terminal, pools, ctx),
                    filtered(registry, tags, terminal.splitName()));
        } else if (terminal.isSplit()) {
            List<BranchSpec> specs = terminal.branches();
            Predicate<Object>[] predicates = new Predicate[specs.size()];
            Node[] branches = new Node[specs.size()];
            for (int i = 0; i < specs.size(); i++) {
                predicates[i] = specs.get(i).predicate();
                branches[i] = new SinkNode(pools.get(specs.get(i).sink()), ctx);
            }
            next = new SplitNode(
                    terminal.splitName(),
                    defaultPolicy,
                    ctx,
                    predicates,
                    branches,
                    otherwise(terminal, pools, ctx),
                    terminal.allMatching(),
                    filtered(registry, tags, terminal.splitName()));
        } else {
            next = new SinkNode(pools.get(terminal.sink()), ctx);
        }
        for (int i = operators.size() - 1; i >= 0; i--) {
            OperatorSpec op = operators.get(i);
            if (op.kind().isAsync()) {
                next = asyncNode(op, ctx, next, registry, tags, stages);
                continue;
            }
            ErrorPolicy policy = op.policy() != null ? op.policy() : defaultPolicy;
            next = new OperatorNode(op, policy, ctx, next, filtered(registry, tags, op.name()));
        }
        return next;
    }

    /** A split's fallback node, or null when it drops what no branch takes. */
    private static Node otherwise(
            TerminalSpec terminal, Map<Sink<Object, ?>, SinkPool<Object, ?>> pools, RecordContext ctx) {
        return terminal.otherwise() == null ? null : new SinkNode(pools.get(terminal.otherwise()), ctx);
    }

    private static Node asyncNode(
            OperatorSpec op, RecordContext ctx, Node next, MeterRegistry registry, Tags tags, AsyncStages stages) {
        StageSettings settings = StageSettings.of(op, stages.section());
        StageMeters meters =
                new StageMeters(registry, tags, op.name(), settings.stallAfter(), filtered(registry, tags, op.name()));
        AsyncNode node = new AsyncNode(op, settings, ctx, next, stages, meters);
        stages.add(node);
        return node;
    }

    private static Counter filtered(MeterRegistry registry, Tags tags, String stage) {
        return registry.counter(EtlMetrics.RECORDS_FILTERED, tags.and(EtlMetrics.TAG_STAGE, stage));
    }
}
