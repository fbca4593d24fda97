package io.etl.core.checkpoint;

import io.etl.core.error.EtlException;
import io.etl.core.source.SourcePartition;
import java.util.Map;

/**
 * A checkpoint that commits the outputs written since the last one together with the source positions
 * behind them, atomically: after {@link #commit} both are visible, after {@link #abort} (or a crash) neither.
 * In exactly-once mode the pipeline finds one in the run's {@link RunContext} (registered by the sink
 * connector) and drives it from the pipeline thread; sink writers write into the open transaction.
 *
 * <p>The pipeline calls {@link #begin()} before the first record of a transaction enters the chain, and
 * {@link #commit} only when every output of every record that entered since is acknowledged by its writer,
 * so the positions cover exactly what the transaction holds. Writers never retry inside a transaction: an
 * error is kept as {@link #failure()}, and the pipeline aborts, rewinds the source to the last committed
 * positions and goes on (a {@link io.etl.core.error.FatalException} fails the pipeline instead).
 */
public interface TransactionalCheckpoint {

    /** Opens a transaction. Pipeline thread; never called while one is open. */
    void begin();

    /** A writer wrote {@code count} messages into the open transaction (any thread). */
    void recordsWritten(int count);

    /**
     * Commits the open transaction with {@code positions} (per source partition, the next offset to read).
     *
     * @return how many messages the transaction held
     * @throws io.etl.core.error.RetryableException when the transaction could not be committed and was
     *                                             aborted: nothing of it is visible
     * @throws io.etl.core.error.FatalException    when this instance may not go on (fenced by a newer one,
     *                                             or an error the client cannot recover from)
     */
    long commit(Map<SourcePartition, Long> positions);

    /** Aborts the open transaction, if any; its outputs are never visible to read-committed consumers. */
    void abort();

    /** The first error a writer met inside the open transaction, or null; the transaction cannot commit. */
    EtlException failure();
}
