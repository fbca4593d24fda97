package io.etl.testkit;

import io.etl.testkit.internal.ClusterSelector;
import io.etl.testkit.internal.EmbeddedKafkaCluster;
import io.etl.testkit.internal.ExternalKafkaCluster;
import io.etl.testkit.internal.ForkedKafkaClusterImpl;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;

/**
 * A real Kafka cluster for a test or a demo, with the few helpers tests keep rewriting: create a topic
 * and wait for its leaders, produce records in bulk with {@code acks=all}, read a topic to its end,
 * read committed group offsets and end offsets.
 *
 * <pre>{@code
 * try (KafkaTestCluster kafka = KafkaTestCluster.fromEnvironment()) {
 *     kafka.createTopic("orders", 3);
 *     kafka.produce("orders", List.of(TestRecord.of("k", "v")));
 *     assertThat(kafka.readAll("orders")).hasSize(1);
 * }
 * }</pre>
 *
 * <p>Which broker you get:
 * <ul>
 *   <li>{@link #embedded()}: a KRaft broker and controller in this JVM on free ports of 127.0.0.1,
 *       ready in about 3 s; the default.</li>
 *   <li>{@link #forkedSingle()}, {@link #forkedCluster(int)}: broker JVMs started from this JVM's
 *       classpath, which a test can kill, stop, pause and restart ({@link ForkedKafkaCluster}).</li>
 *   <li>{@link #external(String)}: a running cluster; nothing is started or stopped.</li>
 *   <li>{@link #fromEnvironment()}: {@code KAFKA_BROKERS} (or {@code -Detl.test.kafka.brokers}) selects
 *       an external cluster; otherwise {@code -Detl.test.kafka=embedded|forked|testcontainers} selects
 *       the kind, embedded by default. Testcontainers is used only when asked for and when Docker is
 *       available; otherwise a WARN says why the embedded broker was started instead.</li>
 * </ul>
 *
 * <p>Kafka's own logging is kept at WARN; {@code -Detl.test.kafka.log=INFO} (or DEBUG, ...) turns it up
 * when the SLF4J binding is slf4j-simple. Closing the cluster stops every process it started and
 * deletes every directory it created; a JVM shutdown hook does the same for clusters left open.
 */
public interface KafkaTestCluster extends AutoCloseable {

    /** Where a cluster comes from. */
    enum Kind {
        /** A broker in this JVM. */
        EMBEDDED,
        /** Broker JVMs started and owned by this JVM. */
        FORKED,
        /** A cluster someone else runs. */
        EXTERNAL,
        /** A Testcontainers Kafka container. */
        TESTCONTAINERS
    }

    /**
     * Starts a plaintext broker in this JVM.
     *
     * @return a started cluster of one node
     */
    static KafkaTestCluster embedded() {
        return embedded(BrokerOptions.defaults());
    }

    /**
     * Starts a broker in this JVM.
     *
     * @param options extra broker properties, security, startup timeout
     * @return a started cluster of one node
     */
    static KafkaTestCluster embedded(BrokerOptions options) {
        return EmbeddedKafkaCluster.start(options);
    }

    /**
     * Starts one combined broker+controller JVM.
     *
     * @return a started cluster; its node id is {@link ForkedKafkaCluster#SINGLE_NODE_ID}
     */
    static ForkedKafkaCluster forkedSingle() {
        return forkedSingle(BrokerOptions.defaults());
    }

    /**
     * Starts one combined broker+controller JVM.
     *
     * @param options extra broker properties, security, startup timeout
     * @return a started cluster; its node id is {@link ForkedKafkaCluster#SINGLE_NODE_ID}
     */
    static ForkedKafkaCluster forkedSingle(BrokerOptions options) {
        return ForkedKafkaClusterImpl.startSingle(options);
    }

    /**
     * Starts a controller JVM (node id {@link ForkedKafkaCluster#CONTROLLER_NODE_ID}) and {@code brokers}
     * broker JVMs (node ids 1..brokers).
     *
     * @param brokers number of brokers, at least 1
     * @return a started cluster
     */
    static ForkedKafkaCluster forkedCluster(int brokers) {
        return forkedCluster(brokers, BrokerOptions.defaults());
    }

    /**
     * Starts a controller JVM and {@code brokers} broker JVMs.
     *
     * @param brokers number of brokers, at least 1
     * @param options extra broker properties, security, startup timeout
     * @return a started cluster
     */
    static ForkedKafkaCluster forkedCluster(int brokers, BrokerOptions options) {
        return ForkedKafkaClusterImpl.startCluster(brokers, options);
    }

    /**
     * Uses a running cluster. {@link #close()} only releases this object's clients.
     *
     * @param bootstrapServers e.g. {@code host1:9092,host2:9092}
     * @return the cluster
     */
    static KafkaTestCluster external(String bootstrapServers) {
        return external(bootstrapServers, Map.of());
    }

    /**
     * Uses a running cluster that needs extra client properties (security, for instance).
     *
     * @param bootstrapServers e.g. {@code host1:9092}
     * @param clientProperties added to every client the kit creates
     * @return the cluster
     */
    static KafkaTestCluster external(String bootstrapServers, Map<String, String> clientProperties) {
        return new ExternalKafkaCluster(bootstrapServers, clientProperties);
    }

    /**
     * The cluster the environment asks for; see the class documentation.
     *
     * @return a started (or external) cluster
     */
    static KafkaTestCluster fromEnvironment() {
        return fromEnvironment(BrokerOptions.defaults());
    }

    /**
     * The cluster the environment asks for, started with these options when the kit starts one.
     * Options are ignored for an external cluster.
     *
     * @param options options for a broker the kit starts
     * @return a started (or external) cluster
     */
    static KafkaTestCluster fromEnvironment(BrokerOptions options) {
        return ClusterSelector.fromEnvironment(options);
    }

    /** @return what kind of cluster this is */
    Kind kind();

    /** @return the client bootstrap address, e.g. {@code 127.0.0.1:41234} */
    String bootstrapServers();

    /**
     * Properties any Kafka client needs to reach this cluster: {@code bootstrap.servers} and, for a
     * secured cluster, the super user's security settings. Add serializers and the like yourself.
     *
     * @return a fresh, modifiable map
     */
    Map<String, String> clientProperties();

    /** @return the client side of the security settings, when the cluster is secured by the kit */
    Optional<ClusterSecurity> security();

    /**
     * The bootstrap address other containers use to reach this cluster, when it runs in a container
     * ({@code -Detl.test.kafka=testcontainers}): its listener on Testcontainers' shared network
     * ({@code Network.SHARED}), for a schema registry container, say.
     *
     * @return the address, e.g. {@code kafka-1a2b3c4d:19092}, or empty when the cluster is not in a container
     */
    default Optional<String> containerNetworkBootstrapServers() {
        return Optional.empty();
    }

    /**
     * The proxies in front of the brokers, when the kit started the cluster with
     * {@link BrokerOptions.Builder#proxied()}.
     *
     * @return the proxies, or empty
     */
    default Optional<BrokerProxies> proxies() {
        return Optional.empty();
    }

    /**
     * Creates a topic with the cluster's default replication factor and waits until every partition
     * has a leader.
     *
     * @param name       topic name
     * @param partitions number of partitions
     */
    default void createTopic(String name, int partitions) {
        createTopic(name, partitions, -1, Map.of());
    }

    /**
     * Creates a topic and waits until every partition has a leader.
     *
     * @param name              topic name
     * @param partitions        number of partitions
     * @param replicationFactor replicas per partition, or {@code -1} for the broker default
     * @param configs           topic configs, e.g. {@code min.insync.replicas}
     */
    void createTopic(String name, int partitions, int replicationFactor, Map<String, String> configs);

    /**
     * Produces records with {@code acks=all} and idempotence, in large batches, and returns when every
     * one is acknowledged.
     *
     * @param topic   topic name
     * @param records records to send, in order
     * @throws KafkaTestClusterException when a send fails
     */
    void produce(String topic, Collection<TestRecord> records);

    /**
     * Produces {@code count} generated records (for bulk loads; nothing is kept in memory) with
     * {@code acks=all} and returns when every one is acknowledged.
     *
     * @param topic     topic name
     * @param count     number of records
     * @param generator record for index 0..count-1
     * @throws KafkaTestClusterException when a send fails
     */
    void produce(String topic, int count, IntFunction<TestRecord> generator);

    /**
     * Reads every partition of a topic from the beginning up to the end offsets taken when the call
     * starts ({@code read_committed}), without a consumer group.
     *
     * @param topic topic name
     * @return records in partition order, then offset order
     */
    List<TestRecord> readAll(String topic);

    /**
     * Offsets committed by a consumer group.
     *
     * @param groupId the group
     * @return committed offset per partition; empty when the group committed nothing
     */
    Map<TopicPartition, Long> committedOffsets(String groupId);

    /**
     * The current end offset (the next offset to be written) of every partition of a topic.
     *
     * @param topic topic name
     * @return end offset per partition
     */
    Map<TopicPartition, Long> endOffsets(String topic);

    /**
     * The sum of a consumer group's committed offsets over its partitions: for a group that started at
     * offset 0, how many records of its input it has committed past.
     *
     * @param groupId the group
     * @return the sum of {@link #committedOffsets(String)}; 0 when the group committed nothing
     */
    default long committedTotal(String groupId) {
        return committedOffsets(groupId).values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    /**
     * The sum of the end offsets of every partition of a topic: the records written to it, transaction
     * markers included, when nothing was deleted.
     *
     * @param topic topic name
     * @return the sum of {@link #endOffsets(String)}
     */
    default long endTotal(String topic) {
        return endOffsets(topic).values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * A new admin client for this cluster; the caller closes it.
     *
     * @return an admin client with {@link #clientProperties()}
     */
    Admin newAdmin();

    /**
     * Stops what the kit started and deletes what it created. Idempotent.
     */
    @Override
    void close();
}
