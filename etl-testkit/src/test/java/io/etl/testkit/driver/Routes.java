package io.etl.testkit.driver;

import io.etl.core.Split;
import java.util.function.Function;

/**
 * The branches of a split, written apart from the pipeline so that the pipeline reads on one line:
 * {@code driver.start(Pipeline.named("split").from(in).split("by-region", byRegion))}.
 */
@FunctionalInterface
interface Routes<T> extends Function<Split<T>, Split.End<T>> {}
