package io.etl.kafka.common.internal;

import java.util.List;

/**
 * What the readiness inspection found, in the order of the uses it was given.
 *
 * @param findings problems and notes, each starting with its key path
 */
public record ReadinessReport(List<Finding> findings) {

    /** Copies. */
    public ReadinessReport {
        findings = List.copyOf(findings);
    }

    /** True when nothing keeps the cluster from being ready for the pipeline. */
    public boolean ready() {
        return problems().isEmpty();
    }

    /** The findings that make it not ready. */
    public List<Finding> problems() {
        return findings.stream().filter(Finding::problem).toList();
    }

    /** The findings that are only informative. */
    public List<Finding> notes() {
        return findings.stream().filter(f -> !f.problem()).toList();
    }
}
