package io.etl.core.internal.dsl;

import io.etl.core.sink.Sink;
import java.util.function.Predicate;

/**
 * One branch of a split.
 *
 * @param name      branch name
 * @param predicate which values it takes
 * @param sink      where they go
 */
public record BranchSpec(String name, Predicate<Object> predicate, Sink<Object, ?> sink) {}
