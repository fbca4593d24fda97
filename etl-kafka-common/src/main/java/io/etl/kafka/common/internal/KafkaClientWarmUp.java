package io.etl.kafka.common.internal;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Initializes the kafka-clients classes whose static set-up dominates a client's first construction: the
 * configuration definitions of the three clients, the protocol's API and error tables, and the client classes
 * themselves. Each Kafka connector type calls {@link #run()} from its warm-up; the first call does the work.
 */
public final class KafkaClientWarmUp {

    private static final List<String> CLASSES = List.of(
            "org.apache.kafka.clients.producer.ProducerConfig",
            "org.apache.kafka.clients.consumer.ConsumerConfig",
            "org.apache.kafka.clients.admin.AdminClientConfig",
            "org.apache.kafka.common.protocol.ApiKeys",
            "org.apache.kafka.common.protocol.Errors",
            "org.apache.kafka.clients.admin.KafkaAdminClient",
            "org.apache.kafka.clients.producer.KafkaProducer",
            "org.apache.kafka.clients.consumer.KafkaConsumer");
    private static final AtomicBoolean DONE = new AtomicBoolean();

    private KafkaClientWarmUp() {}

    /** Initializes the classes once per JVM; a class this kafka-clients version lacks is skipped. */
    public static void run() {
        if (!DONE.compareAndSet(false, true)) {
            return;
        }
        ClassLoader loader = KafkaClientWarmUp.class.getClassLoader();
        for (String name : CLASSES) {
            try {
                Class.forName(name, true, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                // another kafka-clients version: nothing to warm up under this name
            }
        }
    }
}
