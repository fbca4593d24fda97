package io.etl.core.internal.config;

import java.util.function.Supplier;

/**
 * Builds configuration records as the loader binds a file: while it runs, their constructors leave their checks
 * to the loader. Tests of the rules a loader applies to a bound section (a connector's {@code check}) use it to
 * build a section that breaks those rules, as a file can hold one; everything else builds records the checked way.
 * The core's test jar carries this class to the connectors.
 */
public final class AsBound {

    private AsBound() {}

    /** {@code constructor}'s record, built as while a file is bound. */
    public static <T> T record(Supplier<T> constructor) {
        return ConfigBinding.run(constructor);
    }
}
