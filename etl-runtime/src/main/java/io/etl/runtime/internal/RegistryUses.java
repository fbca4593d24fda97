package io.etl.runtime.internal;

import io.etl.core.Pipeline;
import io.etl.core.internal.dsl.PipelineDefinition;
import io.etl.core.sink.Sink;
import io.etl.kafka.common.internal.Finding;
import io.etl.kafka.common.internal.RegistryReadiness;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.source.KafkaSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code schema_registry} blocks of a built pipeline's Kafka source and sinks, checked by the registry
 * readiness checks on the class path ({@link RegistryReadiness#installed()}; none without
 * {@code etl-schema-registry}).
 */
public final class RegistryUses {

    private RegistryUses() {}

    /** The findings about every registry {@code pipeline} uses, each check bounded by {@code timeout}. */
    public static List<Finding> check(Pipeline pipeline, Duration timeout) {
        List<Finding> findings = new ArrayList<>();
        if (!(pipeline instanceof PipelineDefinition definition)) {
            return findings;
        }
        List<RegistryReadiness> checks = RegistryReadiness.installed();
        if (checks.isEmpty()) {
            return findings;
        }
        if (definition.source() instanceof KafkaSource<?> source
                && source.config().schemaRegistry() != null) {
            String path = "source." + source.name() + ".kafka";
            checks.forEach(c -> findings.addAll(c.check(path, source.config().schemaRegistry(), null, timeout)));
        }
        for (Sink<Object, ?> sink : definition.sinks()) {
            if (sink instanceof KafkaSink<?> kafka && kafka.config().schemaRegistry() != null) {
                String path = "sinks." + sink.name() + ".kafka";
                checks.forEach(c -> findings.addAll(c.check(
                        path, kafka.config().schemaRegistry(), kafka.config().topic(), timeout)));
            }
        }
        return findings;
    }
}
