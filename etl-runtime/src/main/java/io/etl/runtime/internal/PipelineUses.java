package io.etl.runtime.internal;

import io.etl.core.Pipeline;
import io.etl.core.internal.dsl.PipelineDefinition;
import io.etl.core.sink.Sink;
import io.etl.kafka.common.internal.ClusterUse;
import io.etl.kafka.common.internal.KafkaClusterUser;
import java.util.ArrayList;
import java.util.List;

/**
 * How a built pipeline uses Kafka clusters, read from its connectors without any I/O: the source, every sink
 * (each once, however many branches lead to it) and the dead-letter handler, when they are Kafka connectors.
 *
 * @param uses    what {@code ClusterInspection} checks, in pipeline order
 * @param skipped key paths of connectors that are not Kafka's and are not checked
 */
public record PipelineUses(List<ClusterUse> uses, List<String> skipped) {

    /** Copies. */
    public PipelineUses {
        uses = List.copyOf(uses);
        skipped = List.copyOf(skipped);
    }

    /**
     * The uses of {@code pipeline}, which must be built ({@link Pipeline#build()}).
     *
     * @throws IllegalArgumentException for a pipeline that was not built by the DSL
     */
    public static PipelineUses of(Pipeline pipeline) {
        if (!(pipeline instanceof PipelineDefinition definition)) {
            throw new IllegalArgumentException("cannot inspect pipeline '" + pipeline.name() + "' of "
                    + pipeline.getClass().getName() + ": not built with Pipeline.named(..)...build()");
        }
        List<ClusterUse> uses = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        add(definition.source(), "source." + definition.source().name(), uses, skipped);
        for (Sink<Object, ?> sink : definition.sinks()) {
            add(sink, "sinks." + sink.name(), uses, skipped);
        }
        if (definition.deadLetter() != null) {
            add(definition.deadLetter(), "dead_letter", uses, skipped);
        }
        return new PipelineUses(uses, skipped);
    }

    private static void add(Object connector, String path, List<ClusterUse> uses, List<String> skipped) {
        if (connector instanceof KafkaClusterUser kafka) {
            uses.addAll(kafka.clusterUses());
        } else {
            skipped.add(path);
        }
    }
}
