package io.etl.kafka.source.internal;

import io.etl.kafka.common.internal.ClientConnection;
import io.etl.kafka.source.KafkaSourceConfig;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** The kafka-clients properties of a source's consumer, from its typed settings and passthrough. */
final class ConsumerSettings {

    private ConsumerSettings() {}

    /** Whether the passthrough selects the KIP-848 group protocol ({@code group.protocol: consumer}). */
    static boolean usesConsumerProtocol(KafkaSourceConfig config) {
        String protocol = config.consumer().get(ConsumerConfig.GROUP_PROTOCOL_CONFIG);
        return protocol != null && protocol.trim().toLowerCase(Locale.ROOT).equals("consumer");
    }

    /**
     * Properties shared by the consumer and the startup check's admin client: brokers, the typed security
     * section, and security properties given through the passthrough instead.
     */
    static Map<String, Object> connection(KafkaSourceConfig config, String path) {
        return ClientConnection.properties(config.brokers(), config.security(), config.consumer(), path);
    }

    /** Every consumer property; the passthrough comes last and was checked not to clash with the rest. */
    static Map<String, Object> consumer(KafkaSourceConfig config, String path) {
        Map<String, Object> props = connection(config, path);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
        if (config.groupInstanceId() != null) {
            props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, config.groupInstanceId());
        }
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // auto_offset_reset is applied by OffsetResets, which reports every jump over records never read
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, config.maxPollRecords());
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        if (!usesConsumerProtocol(config)) {
            // the classic protocol's client-side settings; with group.protocol=consumer the broker owns them
            // and the client rejects them
            int sessionMs = Math.toIntExact(config.sessionTimeout().toMillis());
            props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, sessionMs);
            if (!config.consumer().containsKey(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG)) {
                // members learn of a rebalance from a heartbeat response: a short interval makes scaling and
                // static-member restarts quick, at the price of one small request a second
                props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, Math.max(100, Math.min(1000, sessionMs / 3)));
            }
            props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        }
        props.putAll(config.consumer());
        return props;
    }
}
