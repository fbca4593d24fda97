package io.etl.core.internal.pool;

import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.RecordException;
import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.record.RecordMeta;

/**
 * One message of an acknowledged batch that the destination refused on its own account.
 *
 * @param sink     the sink whose destination refused it
 * @param policy   the policy that applies (the sink's {@code on_error})
 * @param source   the input record the message came from
 * @param output   which output of that record the message is (its index among the record's outputs)
 * @param owner    still holds the message's hold: the receiver releases (or fails) it once the policy is carried out
 * @param error    why it was refused
 * @param attempts the write attempt that refused it
 */
public record Refusal(
        String sink,
        ErrorPolicy policy,
        RecordMeta source,
        int output,
        PendingRecord owner,
        RecordException error,
        int attempts) {

    /** The same refusal under another policy. */
    public Refusal withPolicy(ErrorPolicy other) {
        return new Refusal(sink, other, source, output, owner, error, attempts);
    }
}
