package io.etl.core.internal.config;

import java.util.function.Supplier;

/**
 * Marks the thread that binds a YAML file. Configuration records built meanwhile leave out the check their
 * constructors make ({@link CodeConfigValidation#constructed}): the loader validates each section it binds and
 * reports every problem of the file in one exception, where a constructor would stop the binding at the first
 * record that breaks a rule.
 */
final class ConfigBinding {

    private static final ThreadLocal<Boolean> ACTIVE = new ThreadLocal<>();

    private ConfigBinding() {}

    /** Runs {@code binding} with this thread marked as binding a file. */
    static <T> T run(Supplier<T> binding) {
        if (active()) {
            return binding.get();
        }
        ACTIVE.set(Boolean.TRUE);
        try {
            return binding.get();
        } finally {
            ACTIVE.remove();
        }
    }

    /** Whether this thread is binding a file. */
    static boolean active() {
        return ACTIVE.get() != null;
    }
}
