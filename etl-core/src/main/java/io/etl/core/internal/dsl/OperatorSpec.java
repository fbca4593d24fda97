package io.etl.core.internal.dsl;

import io.etl.core.error.ErrorPolicy;

/**
 * One operator of a definition.
 *
 * @param kind     what it does
 * @param name     its unique name
 * @param function the user function (a {@code BiPredicate}, {@code BiFunction}, {@code Function},
 *                 {@code Consumer} or {@code RecordProcessor}, by kind)
 * @param policy   its error policy, or null for the pipeline default
 */
public record OperatorSpec(Kind kind, String name, Object function, ErrorPolicy policy) {

    /** Operator kinds. */
    public enum Kind {
        FILTER,
        MAP,
        FLAT_MAP,
        PEEK,
        PROCESS
    }

    OperatorSpec withPolicy(ErrorPolicy value) {
        return new OperatorSpec(kind, name, function, value);
    }
}
