package io.etl.kafka.sink;

import java.util.Objects;

/**
 * A change to a document, for the envelope encoder: an upsert carries the document, a delete becomes a
 * tombstone keyed by the id.
 *
 * <pre>{@code
 * KafkaSink<Change<Product>> sink = KafkaSink.from(config.sink("products")).envelope();
 * ... .map("to-change", p -> p.deleted() ? Change.delete(p.id()) : Change.upsert(p.id(), p))
 * }</pre>
 *
 * @param id       the document's identity; becomes the message key
 * @param document the document, null for a delete
 * @param delete   whether this change deletes the document
 * @param <T>      document type
 */
public record Change<T>(String id, T document, boolean delete) {

    public Change {
        Objects.requireNonNull(id, "id");
    }

    /** The document was created or updated. */
    public static <T> Change<T> upsert(String id, T document) {
        return new Change<>(id, document, false);
    }

    /** The document was deleted. */
    public static <T> Change<T> delete(String id) {
        return new Change<>(id, null, true);
    }
}
