package io.etl.core.internal.dsl;

import io.etl.core.sink.Sink;
import java.util.List;
import java.util.function.Predicate;

/**
 * One branch of a split.
 *
 * @param name      branch name
 * @param predicate which values it takes; null in a keyed split
 * @param keys      the keys it takes in a keyed split; empty otherwise
 * @param sink      where they go
 */
public record BranchSpec(String name, Predicate<Object> predicate, List<Object> keys, Sink<Object, ?> sink) {}
