package io.etl.core.internal.dsl;

import io.etl.core.config.PipelineSection;
import io.etl.core.config.StageConfig;
import io.etl.core.error.ErrorPolicy;

/**
 * One operator of a definition.
 *
 * @param kind     what it does
 * @param name     its unique name
 * @param function the user function (a {@code BiPredicate}, {@code BiFunction}, {@code Function},
 *                 {@code Consumer} or {@code RecordProcessor}, by kind)
 * @param policy   its error policy, or null for the pipeline default
 * @param stage    an asynchronous operator's settings given in code (never null for one), null for the others
 */
public record OperatorSpec(Kind kind, String name, Object function, ErrorPolicy policy, StageConfig stage) {

    /** Operator kinds. */
    public enum Kind {
        FILTER,
        MAP,
        FLAT_MAP,
        PEEK,
        PROCESS,
        MAP_ASYNC,
        FLAT_MAP_ASYNC,
        FILTER_ASYNC,
        MAP_CONCURRENT;

        /** Whether records wait in this operator for calls that complete later, several at a time. */
        public boolean isAsync() {
            return this == MAP_ASYNC || this == FLAT_MAP_ASYNC || this == FILTER_ASYNC || this == MAP_CONCURRENT;
        }
    }

    /** An asynchronous operator's settings under {@code pipeline}: those given in code, overridden key by key. */
    public StageConfig stageUnder(PipelineSection pipeline) {
        return stage.overriddenBy(pipeline.stages().get(name));
    }

    /**
     * Its error policy under {@code pipeline}: an asynchronous stage's {@code on_error} setting, else the one given
     * with {@code onError(..)}, else {@code pipeline.on_error}.
     */
    public ErrorPolicy policyUnder(PipelineSection pipeline) {
        ErrorPolicy own = ownPolicyUnder(pipeline);
        return own != null ? own : pipeline.onError();
    }

    /**
     * Its own error policy under {@code pipeline}: an asynchronous stage's {@code on_error} setting, else the one
     * given with {@code onError(..)}; null when it inherits {@code pipeline.on_error}.
     */
    public ErrorPolicy ownPolicyUnder(PipelineSection pipeline) {
        if (stage != null) {
            ErrorPolicy own = stageUnder(pipeline).onError();
            if (own != null) {
                return own;
            }
        }
        return policy;
    }

    OperatorSpec withPolicy(ErrorPolicy value) {
        return new OperatorSpec(kind, name, function, value, stage);
    }

    OperatorSpec withStage(StageConfig value) {
        return new OperatorSpec(kind, name, function, policy, value);
    }
}
