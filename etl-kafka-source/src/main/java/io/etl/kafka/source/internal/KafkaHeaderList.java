package io.etl.kafka.source.internal;

import io.etl.core.record.Header;
import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;
import org.apache.kafka.common.header.Headers;

/**
 * A read-only view of a Kafka record's headers as {@link Header}s, over the array the client already
 * holds. Each {@link Header} is made when it is read, so a pipeline that never looks at headers pays
 * nothing for them.
 */
final class KafkaHeaderList extends AbstractList<Header> implements RandomAccess {

    // CHECKSTYLE.OFF: InlineFullyQualifiedName - Kafka's Header besides ours
    private final org.apache.kafka.common.header.Header[] headers;

    private KafkaHeaderList(org.apache.kafka.common.header.Header[] headers) {
        this.headers = headers;
    }

    /** {@code List.of()} for a record without headers, else a view. */
    static List<Header> of(Headers headers) {
        org.apache.kafka.common.header.Header[] array = headers.toArray();
        return array.length == 0 ? List.of() : new KafkaHeaderList(array);
    }

    @Override
    public Header get(int index) {
        org.apache.kafka.common.header.Header h = headers[index];
        // CHECKSTYLE.ON: InlineFullyQualifiedName
        return new Header(h.key(), h.value());
    }

    @Override
    public int size() {
        return headers.length;
    }
}
