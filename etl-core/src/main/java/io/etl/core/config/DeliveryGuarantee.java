package io.etl.core.config;

/**
 * What {@code pipeline.delivery} promises about outputs after a crash, a restart or a rebalance.
 * <ul>
 *   <li>{@link #AT_LEAST_ONCE} (the default): nothing is lost; records after the last committed offsets are
 *       written again after a crash, so outputs may hold duplicates.</li>
 *   <li>{@link #EXACTLY_ONCE}: the outputs of a checkpoint and the source offsets behind them are committed
 *       in one transaction; a consumer that reads only committed data sees every output exactly once. It
 *       needs connectors that implement {@link io.etl.core.checkpoint.TransactionalCheckpoint}.</li>
 * </ul>
 */
public enum DeliveryGuarantee {
    AT_LEAST_ONCE,
    EXACTLY_ONCE
}
