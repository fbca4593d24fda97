package io.etl.kafka.source.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.core.error.ErrorPolicy;
import io.etl.kafka.source.Decoder;
import io.etl.kafka.source.KafkaSource;
import io.etl.kafka.source.KafkaSourceBuilder;
import io.etl.kafka.source.KafkaSourceConfig;
import java.util.Objects;

/** Makes {@link KafkaConsumerSource}s with the chosen decoder. */
public final class KafkaSourceBuilderImpl implements KafkaSourceBuilder {

    private final String name;
    private final KafkaSourceConfig config;
    private final ErrorPolicy onError;

    public KafkaSourceBuilderImpl(String name, KafkaSourceConfig config, ErrorPolicy onError) {
        this.name = Objects.requireNonNull(name, "name");
        this.config = Objects.requireNonNull(config, "config");
        this.onError = onError;
    }

    @Override
    public KafkaSource<byte[]> bytes() {
        return with(Decoders.bytes());
    }

    @Override
    public KafkaSource<String> string() {
        return with(Decoders.string());
    }

    @Override
    public <T> KafkaSource<T> json(Class<T> type) {
        return with(Decoders.json(type, Decoders.MAPPER));
    }

    @Override
    public <T> KafkaSource<T> json(Class<T> type, ObjectMapper mapper) {
        return with(Decoders.json(type, mapper));
    }

    @Override
    public KafkaSource<JsonNode> jsonTree() {
        return with(Decoders.jsonTree(Decoders.MAPPER));
    }

    @Override
    public <T> KafkaSource<T> with(Decoder<T> decoder) {
        return KafkaConsumerSource.create(name, config, onError, decoder);
    }
}
