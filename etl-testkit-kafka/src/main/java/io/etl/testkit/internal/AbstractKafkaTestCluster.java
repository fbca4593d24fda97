package io.etl.testkit.internal;

import io.etl.testkit.ClusterSecurity;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.KafkaTestClusterException;
import io.etl.testkit.TestRecord;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** The helpers every kind of cluster shares: topics, bulk produce, read-to-end, offsets, cleanup. */
public abstract class AbstractKafkaTestCluster implements KafkaTestCluster {

    /** Timeout for one admin call made by a helper. */
    static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);
    /** Timeout for {@link #readAll(String)}. */
    static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    private final Object lock = new Object();
    private Admin admin;
    private volatile boolean closed;

    protected AbstractKafkaTestCluster() {
        Resources.register(this);
    }

    /** @return the security view, when the kit secured this cluster */
    protected Optional<ClusterSecurityImpl> securityImpl() {
        return Optional.empty();
    }

    @Override
    public Optional<ClusterSecurity> security() {
        return securityImpl().map(s -> s);
    }

    @Override
    public Map<String, String> clientProperties() {
        Map<String, String> p =
                securityImpl().map(ClusterSecurityImpl::superUserProperties).orElseGet(HashMap::new);
        p.put("bootstrap.servers", bootstrapServers());
        return p;
    }

    private Map<String, Object> clientConfig() {
        return new HashMap<>(clientProperties());
    }

    /** @return an admin client owned by this cluster (closed with it) */
    protected Admin admin() {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException(this + " is closed");
            }
            if (admin == null) {
                admin = newAdmin();
            }
            return admin;
        }
    }

    /** Closes the cluster's own admin client, e.g. after the bootstrap address changed. */
    protected void resetAdmin() {
        synchronized (lock) {
            if (admin != null) {
                admin.close(Duration.ofSeconds(2));
                admin = null;
            }
        }
    }

    @Override
    public Admin newAdmin() {
        Map<String, Object> config = clientConfig();
        config.putIfAbsent("client.id", "etl-testkit-admin");
        return Admin.create(config);
    }

    @Override
    public void createTopic(String name, int partitions, int replicationFactor, Map<String, String> configs) {
        NewTopic topic = new NewTopic(
                        name,
                        Optional.of(partitions),
                        replicationFactor < 0 ? Optional.empty() : Optional.of((short) replicationFactor))
                .configs(configs);
        get(admin().createTopics(List.of(topic)).all(), "create topic " + name);
        // a leader named in the metadata may not serve the partition yet: a produce in that moment is refused
        // (NOT_LEADER_OR_FOLLOWER), and an idempotent producer whose first batch is refused while later ones
        // land can then be stuck on OUT_OF_ORDER_SEQUENCE_NUMBER. ListOffsets goes to each partition's leader
        // the way a produce does: once it answers for every partition, every one has a leader taking writes.
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            latest.put(new TopicPartition(name, p), OffsetSpec.latest());
        }
        // ListOffsets logs an ERROR for a topic the answering broker's metadata does not hold yet, where
        // DescribeTopics only fails its future: ask the latter until every partition has a leader.
        Waits.until("every partition of " + name + " to have a leader serving requests", ADMIN_TIMEOUT, () -> {
            if (!hasLeaders(name, partitions)) {
                return false;
            }
            admin().listOffsets(latest).all().get(5, TimeUnit.SECONDS);
            return true;
        });
    }

    private boolean hasLeaders(String topic, int partitions) throws Exception {
        TopicDescription description = admin().describeTopics(List.of(topic))
                .topicNameValues()
                .get(topic)
                .get(5, TimeUnit.SECONDS);
        return description.partitions().size() == partitions
                && description.partitions().stream()
                        .allMatch(p -> p.leader() != null && !p.leader().isEmpty());
    }

    @Override
    public void produce(String topic, Collection<TestRecord> records) {
        List<TestRecord> list = List.copyOf(records);
        produce(topic, list.size(), list::get);
    }

    @Override
    public void produce(String topic, int count, IntFunction<TestRecord> generator) {
        Map<String, Object> config = clientConfig();
        config.put("acks", "all");
        config.put("enable.idempotence", "true");
        config.put("linger.ms", "5");
        config.put("batch.size", Integer.toString(256 * 1024));
        config.put("buffer.memory", Long.toString(64L * 1024 * 1024));
        config.put("client.id", "etl-testkit-producer");
        AtomicReference<Exception> failure = new AtomicReference<>();
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < count && failure.get() == null; i++) {
                TestRecord r = generator.apply(i);
                List<Header> headers = new ArrayList<>();
                r.headers().forEach((k, v) -> headers.add(new RecordHeader(k, v)));
                ProducerRecord<byte[], byte[]> pr = new ProducerRecord<>(
                        topic,
                        r.partition() < 0 ? null : r.partition(),
                        r.timestamp() < 0 ? null : r.timestamp(),
                        r.key(),
                        r.value(),
                        headers);
                producer.send(pr, (metadata, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                });
            }
            producer.flush();
        } catch (RuntimeException e) {
            throw new KafkaTestClusterException("producing to " + topic + " on " + bootstrapServers() + " failed", e);
        }
        if (failure.get() != null) {
            throw new KafkaTestClusterException(
                    "producing to " + topic + " on " + bootstrapServers() + " failed", failure.get());
        }
    }

    @Override
    public List<TestRecord> readAll(String topic) {
        Map<String, Object> config = clientConfig();
        config.put("isolation.level", "read_committed");
        config.put("enable.auto.commit", "false");
        config.put("auto.offset.reset", "earliest");
        config.put("max.poll.records", "10000");
        config.put("client.id", "etl-testkit-reader");
        List<TestRecord> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = partitionsOf(topic);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, ADMIN_TIMEOUT);
            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (!reachedEnd(consumer, end)) {
                if (System.nanoTime() - deadline > 0) {
                    throw new KafkaTestClusterException("reading " + topic + " to its end " + end + " took more than "
                            + READ_TIMEOUT.toSeconds() + " s; read " + out.size() + " records");
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.offset() < end.get(new TopicPartition(r.topic(), r.partition()))) {
                        Map<String, byte[]> headers = new LinkedHashMap<>();
                        for (Header h : r.headers()) {
                            headers.put(h.key(), h.value());
                        }
                        out.add(new TestRecord(
                                r.topic(), r.partition(), r.offset(), r.timestamp(), r.key(), r.value(), headers));
                    }
                }
            }
        } catch (KafkaTestClusterException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new KafkaTestClusterException("reading " + topic + " from " + bootstrapServers() + " failed", e);
        }
        out.sort(Comparator.comparingInt(TestRecord::partition).thenComparingLong(TestRecord::offset));
        return out;
    }

    private static boolean reachedEnd(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey(), ADMIN_TIMEOUT) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private List<TopicPartition> partitionsOf(String topic) {
        TopicDescription d = get(admin().describeTopics(List.of(topic)).allTopicNames(), "describe topic " + topic)
                .get(topic);
        return d.partitions().stream()
                .map(TopicPartitionInfo::partition)
                .sorted()
                .map(p -> new TopicPartition(topic, p))
                .collect(Collectors.toList());
    }

    @Override
    public Map<TopicPartition, Long> committedOffsets(String groupId) {
        Map<TopicPartition, OffsetAndMetadata> offsets = get(
                admin().listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata(),
                "list offsets of group " + groupId);
        Map<TopicPartition, Long> out = new HashMap<>();
        offsets.forEach((tp, om) -> {
            if (om != null) {
                out.put(tp, om.offset());
            }
        });
        return out;
    }

    @Override
    public Map<TopicPartition, Long> endOffsets(String topic) {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (TopicPartition tp : partitionsOf(topic)) {
            request.put(tp, OffsetSpec.latest());
        }
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> result =
                get(admin().listOffsets(request).all(), "list end offsets of " + topic);
        Map<TopicPartition, Long> out = new HashMap<>();
        result.forEach((tp, info) -> out.put(tp, info.offset()));
        return out;
    }

    /** Waits for an admin future with {@link #ADMIN_TIMEOUT}. */
    protected <T> T get(KafkaFuture<T> future, String what) {
        try {
            return future.get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaTestClusterException("interrupted: " + what, e);
        } catch (ExecutionException e) {
            throw new KafkaTestClusterException(
                    "cannot " + what + " on " + bootstrapServers() + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new KafkaTestClusterException(
                    "cannot " + what + " on " + bootstrapServers() + " within " + ADMIN_TIMEOUT.toSeconds() + " s", e);
        }
    }

    /**
     * Waits until {@code describeCluster} lists at least {@code brokers} brokers, using a short-lived admin
     * client with short timeouts.
     */
    protected void awaitBrokers(int brokers, Duration timeout) {
        awaitBrokers(List.of(), brokers, timeout);
    }

    /** Waits until {@code describeCluster} lists at least {@code brokers} brokers including {@code required}. */
    protected void awaitBrokers(Collection<Integer> required, int brokers, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        // an admin client logs a WARN for every refused connection: let a listener take one before it starts
        Waits.until(
                "a listener at " + bootstrapServers() + " to accept connections", timeout, this::anyListenerAccepts);
        Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
        Map<String, Object> config = clientConfig();
        config.put("request.timeout.ms", "3000");
        config.put("default.api.timeout.ms", "5000");
        config.put("reconnect.backoff.max.ms", "200");
        config.put("client.id", "etl-testkit-readiness");
        try (Admin probe = Admin.create(config)) {
            Waits.until(brokers + " broker(s) at " + bootstrapServers() + " to answer", left, () -> {
                var nodes = probe.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                var ids = nodes.stream().map(n -> n.id()).collect(Collectors.toSet());
                return nodes.size() >= brokers && ids.containsAll(required);
            });
        }
    }

    /**
     * Whether one of the bootstrap addresses takes a TCP connection; true as well for an address this cannot
     * read, so that the admin client, not this pre-check, reports it.
     */
    private boolean anyListenerAccepts() {
        for (String entry : bootstrapServers().split(",")) {
            InetSocketAddress address;
            try {
                address = socketAddress(entry);
            } catch (RuntimeException unreadable) {
                return true;
            }
            try (Socket socket = new Socket()) {
                socket.connect(address, 500);
                return true;
            } catch (IOException refused) {
                // not listening yet: try the next address
            }
        }
        return false;
    }

    /** {@code host:port}, {@code [v6]:port} or either after a {@code LISTENER://} prefix. */
    static InetSocketAddress socketAddress(String entry) {
        String address = entry.trim();
        int scheme = address.indexOf("://");
        if (scheme >= 0) {
            address = address.substring(scheme + 3);
        }
        int colon = address.lastIndexOf(':');
        String host = address.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return new InetSocketAddress(host, Integer.parseInt(address.substring(colon + 1)));
    }

    @Override
    public final void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            if (admin != null) {
                admin.close(Duration.ofSeconds(2));
                admin = null;
            }
        }
        try {
            doClose();
        } finally {
            Resources.unregister(this);
        }
    }

    /** @return whether {@link #close()} was called */
    protected boolean isClosed() {
        return closed;
    }

    /** Stops what this cluster started and deletes what it created. */
    protected abstract void doClose();
}
