package io.etl.schema.internal;

import io.etl.kafka.common.SchemaRegistryConfig;
import io.etl.kafka.common.SchemaRegistryConfig.SubjectStrategy;
import io.etl.kafka.common.internal.Finding;
import io.etl.kafka.common.internal.RegistryReadiness;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code check} of a {@code schema_registry} block: asks the registry for its subjects (reachable,
 * credentials accepted) and, for a sink that does not register and names subjects after its topic, whether
 * {@code <topic>-value} is among them.
 */
public final class RegistryCheck implements RegistryReadiness {

    @Override
    public List<Finding> check(String path, SchemaRegistryConfig config, String sinkTopic, Duration timeout) {
        String at = path + ".schema_registry";
        List<Finding> findings = new ArrayList<>();
        Duration bound = timeout.compareTo(config.requestTimeout()) < 0 ? timeout : config.requestTimeout();
        RegistryClient client = new RegistryClient(
                config.withRequestTimeout(bound), at, new RegistryMetrics(new SimpleMeterRegistry(), Tags.empty()));
        List<String> subjects;
        try {
            subjects = client.subjects();
        } catch (RegistryException e) {
            findings.add(RegistryReadiness.problem(at + ".url", e.getMessage()));
            return findings;
        }
        findings.add(RegistryReadiness.note(
                at, "registry " + client.urls() + " answers (" + subjects.size() + " subjects)"));
        if (sinkTopic != null && !config.autoRegister() && config.subjectStrategy() == SubjectStrategy.TOPIC) {
            String subject = SubjectStrategy.TOPIC.subject(sinkTopic, false, null);
            if (!subjects.contains(subject)) {
                findings.add(RegistryReadiness.problem(
                        at,
                        "subject '" + subject + "' does not exist and auto_register is false: register the sink's"
                                + " schema first, or set auto_register: true"));
            }
        }
        return findings;
    }
}
