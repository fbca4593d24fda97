package io.etl.core.config;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.error.ConfigException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * A configuration builder call that must fail, with the one problem it must report, worded the way YAML
 * validation words it ({@code shards: must be between 1 and 256}). The builder tests of the core and of the
 * connectors list their cases as these, parameters of one parameterized test each (the core's test jar
 * carries this class to the connectors).
 *
 * @param call    the builder call
 * @param problem the whole problem, key path first
 */
public record ConfigRejection(ThrowingCallable call, String problem) {

    /** The case: {@code call} throws a {@link ConfigException} reporting exactly {@code problem}. */
    public static ConfigRejection rejected(ThrowingCallable call, String problem) {
        return new ConfigRejection(call, problem);
    }

    /** Runs the call and asserts the exception and its whole message. */
    public void assertRejected() {
        assertThatThrownBy(call).isInstanceOf(ConfigException.class).hasMessage("invalid configuration: " + problem);
    }

    /** The problem: what a parameterized test shows as the case's name. */
    @Override
    public String toString() {
        return problem;
    }
}
