package io.etl.core.config;

/**
 * What an asynchronous stage ({@code mapAsync}, {@code flatMapAsync}, {@code filterAsync}, {@code mapConcurrent})
 * keeps in order while it has several records in flight ({@code pipeline.stages.<name>.ordering}).
 * <ul>
 *   <li>{@link #KEY} (the default): records with the same key are called one after another, in offset order;
 *       records with different keys in parallel. Records without a key have no order to keep.</li>
 *   <li>{@link #PARTITION}: calls run in parallel; their results leave the stage in offset order per source
 *       partition, so a slow call holds back the completed ones behind it.</li>
 *   <li>{@link #NONE}: calls run in parallel and results leave as they complete.</li>
 * </ul>
 * Whatever the order, offsets are committed only below the lowest record still in a stage.
 */
public enum AsyncOrdering {
    KEY,
    PARTITION,
    NONE
}
