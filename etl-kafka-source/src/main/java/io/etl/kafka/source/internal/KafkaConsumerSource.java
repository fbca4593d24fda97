package io.etl.kafka.source.internal;

import io.etl.core.config.Durations;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.FatalException;
import io.etl.core.metrics.EtlMetrics;
import io.etl.core.record.RecordMeta;
import io.etl.core.source.CommitCallback;
import io.etl.core.source.PartitionListener;
import io.etl.core.source.SourceContext;
import io.etl.core.source.SourceOutput;
import io.etl.core.source.SourcePartition;
import io.etl.kafka.common.internal.ClientProperties;
import io.etl.kafka.common.internal.ClusterUse;
import io.etl.kafka.common.internal.KafkaClusterUser;
import io.etl.kafka.source.Decoder;
import io.etl.kafka.source.KafkaSource;
import io.etl.kafka.source.KafkaSourceConfig;
import io.etl.kafka.source.KafkaSourceMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.InvalidOffsetException;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka consumer-group source. Everything, including the rebalance callbacks and commit callbacks,
 * runs on the pipeline thread that calls {@link #poll}, so no state here needs a lock.
 *
 * <p>The set of partitions this instance may commit for is {@link #assigned}: it is updated only by the
 * rebalance callbacks, so a commit requested for a partition that was revoked or lost in the meantime is
 * dropped rather than overwriting what the partition's new owner commits.
 *
 * @param <T> decoded value type
 */
public final class KafkaConsumerSource<T> implements KafkaSource<T>, ConsumerRebalanceListener, KafkaClusterUser {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaConsumerSource.class);
    /** Bound of a synchronous commit outside a rebalance (the final commit at shutdown). */
    static final Duration SYNC_COMMIT_TIMEOUT = Duration.ofSeconds(10);

    private final String name;
    private final KafkaSourceConfig config;
    private final ErrorPolicy onError;
    private final Decoder<T> decoder;
    private final Function<Map<String, Object>, Consumer<byte[], byte[]>> consumerFactory;
    private final boolean startupCheck;
    private final String path;

    /** Partitions assigned now, with the SourcePartition made for them once. */
    private final Map<TopicPartition, SourcePartition> assigned = new HashMap<>();
    private final Map<SourcePartition, TopicPartition> byPartition = new HashMap<>();
    /** Gauges read this source's state; they are removed on close so that nothing holds it afterwards. */
    private final List<Meter> gauges = new ArrayList<>();
    private ConsumerMetrics clientMetrics;

    private Consumer<byte[], byte[]> consumer;
    private PartitionListener listener;
    private MeterRegistry registry;
    private boolean paused;
    private boolean closing;
    /** When the last poll returned, and the time spent in rebalance callbacks since: to see a frozen JVM. */
    private long lastPollNanos;
    private long callbackNanos;
    /** How long nothing ran, when that was longer than the session and the group has not settled since. */
    private long awayNanos;
    /** When a rejoin was asked for after being away; records are refused until the group settles or then + session. */
    private long rejoinAskedNanos;
    /** Monotonic time in nanoseconds; a test replaces it to simulate a frozen JVM. */
    LongSupplier clock = System::nanoTime;
    /** Thrown by the pipeline inside a rebalance callback; rethrown once poll returns. */
    private RuntimeException callbackFailure;
    /** An asynchronous commit failure that retrying cannot fix; thrown by the next poll. */
    private RuntimeException commitFailure;
    private Counter assignedEvents;
    private Counter revokedEvents;
    private Counter lostEvents;
    private Counter commitsOk;
    private Counter commitsFailed;
    private Counter commitsDeferred;

    /**
     * @param consumerFactory makes the consumer from its properties ({@code KafkaConsumer::new} in production)
     * @param startupCheck    whether {@link #open} first checks the brokers and topics with an admin client
     */
    public KafkaConsumerSource(String name, KafkaSourceConfig config, ErrorPolicy onError, Decoder<T> decoder,
                               Function<Map<String, Object>, Consumer<byte[], byte[]>> consumerFactory,
                               boolean startupCheck) {
        this.name = Objects.requireNonNull(name, "name");
        this.config = Objects.requireNonNull(config, "config");
        this.onError = onError == null ? ErrorPolicy.FAIL : onError;
        this.decoder = Objects.requireNonNull(decoder, "decoder");
        this.consumerFactory = Objects.requireNonNull(consumerFactory, "consumerFactory");
        this.startupCheck = startupCheck;
        this.path = "source." + name + ".kafka";
    }

    /** A source with a real {@link KafkaConsumer} and the startup check. */
    public static <T> KafkaConsumerSource<T> create(String name, KafkaSourceConfig config, ErrorPolicy onError,
                                                    Decoder<T> decoder) {
        return new KafkaConsumerSource<>(name, config, onError, decoder, KafkaConsumer::new, true);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public KafkaSourceConfig config() {
        return config;
    }

    @Override
    public ErrorPolicy errorPolicy() {
        return onError;
    }

    @Override
    public Duration pollTimeout() {
        return config.pollTimeout();
    }

    /** Reads each of its topics (or a pattern) in its group. */
    @Override
    public List<ClusterUse> clusterUses() {
        Map<String, Object> connection = ConsumerSettings.connection(config, path);
        List<String> topics = config.topics().isEmpty() ? java.util.Collections.singletonList(null) : config.topics();
        List<ClusterUse> uses = new ArrayList<>();
        for (String topic : topics) {
            ClusterUse use = ClusterUse.read(path, connection, topic, config.groupId());
            if (config.security() != null && config.security().principal().isPresent()) {
                use = use.withPrincipal(config.security().principal().get());
            }
            uses.add(use);
        }
        return uses;
    }

    // ---- open ----------------------------------------------------------------------------------------------

    @Override
    public void open(SourceContext context) {
        if (consumer != null) {
            throw new IllegalStateException("source '" + name + "' is already open");
        }
        this.listener = context.listener();
        List<io.etl.core.error.ConfigProblem> problems = SourceConfigCheck.problems(config, path);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        if (startupCheck) {
            StartupCheck.run(config, ConsumerSettings.connection(config, path), path, context.runId());
        }
        Map<String, Object> props = ConsumerSettings.consumer(config, path);
        boolean exactlyOnce = context.run().exactlyOnce();
        if (exactlyOnce) {
            // exactly-once pipelines chain: read only what an upstream transaction committed, unless told otherwise
            props.putIfAbsent(org.apache.kafka.clients.consumer.ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        }
        LOG.debug("source '{}': consumer properties {}", name, ClientProperties.redacted(props));
        if (ConsumerSettings.usesConsumerProtocol(config)) {
            LOG.info("source '{}': group.protocol=consumer: session timeout and assignment strategy are the broker's"
                    + " (group.consumer.*); session_timeout is not used", name);
        }
        try {
            consumer = consumerFactory.apply(props);
        } catch (KafkaException e) {
            throw ConfigException.of(path + ".consumer", "the Kafka consumer rejected its configuration: "
                    + rootMessage(e), e);
        }
        registerMeters(context);
        if (exactlyOnce) {
            Consumer<byte[], byte[]> c = consumer;
            context.run().computeIfAbsent(io.etl.kafka.common.KafkaTransactionLink.class,
                    io.etl.kafka.common.KafkaTransactionLink::new).attach(c::groupMetadata, config.groupInstanceId());
        }
        if (config.topics().isEmpty()) {
            consumer.subscribe(Pattern.compile(config.topicPattern()), this);
            LOG.info("source '{}': group '{}' subscribed to topics matching /{}/", name, config.groupId(),
                    config.topicPattern());
        } else {
            consumer.subscribe(config.topics(), this);
            LOG.info("source '{}': group '{}' subscribed to {}", name, config.groupId(), config.topics());
        }
    }

    private void registerMeters(SourceContext context) {
        this.registry = context.meterRegistry();
        // the pipeline's tags (pipeline, source, metrics.common_tags), so these meters line up with the core's
        Tags tags = (context.tags() == null ? Tags.of(EtlMetrics.TAG_PIPELINE, context.pipeline()) : context.tags())
                .and(EtlMetrics.TAG_SOURCE, name);
        assignedEvents = counter(KafkaSourceMetrics.REBALANCES, tags.and(KafkaSourceMetrics.TAG_EVENT, "assigned"));
        revokedEvents = counter(KafkaSourceMetrics.REBALANCES, tags.and(KafkaSourceMetrics.TAG_EVENT, "revoked"));
        lostEvents = counter(KafkaSourceMetrics.REBALANCES, tags.and(KafkaSourceMetrics.TAG_EVENT, "lost"));
        commitsOk = counter(KafkaSourceMetrics.COMMITS, tags.and(KafkaSourceMetrics.TAG_OUTCOME, "success"));
        commitsFailed = counter(KafkaSourceMetrics.COMMITS, tags.and(KafkaSourceMetrics.TAG_OUTCOME, "failure"));
        commitsDeferred = counter(KafkaSourceMetrics.COMMITS, tags.and(KafkaSourceMetrics.TAG_OUTCOME, "rebalancing"));
        gauges.add(Gauge.builder(KafkaSourceMetrics.ASSIGNED_PARTITIONS, assigned, Map::size)
                .tags(tags).register(registry));
        gauges.add(Gauge.builder(KafkaSourceMetrics.RECORDS_LAG_MAX, this, KafkaConsumerSource::lagMax)
                .tags(tags).register(registry));
        if (!config.statisticsInterval().isZero()) {
            clientMetrics = ConsumerMetrics.bind(consumer, registry, tags, config.statisticsInterval(),
                    "etl-source-" + name + "-metrics");
        }
    }

    private Counter counter(String meter, Tags tags) {
        return registry.counter(meter, tags);
    }

    /** The consumer's {@code records-lag-max} over all partitions (read from a metrics thread). */
    private double lagMax() {
        Consumer<byte[], byte[]> c = consumer;
        if (c == null) {
            return Double.NaN;
        }
        for (Map.Entry<MetricName, ? extends Metric> e : c.metrics().entrySet()) {
            MetricName n = e.getKey();
            if (n.name().equals("records-lag-max") && n.group().equals("consumer-fetch-manager-metrics")
                    && !n.tags().containsKey("topic")) {
                Object v = e.getValue().metricValue();
                return v instanceof Number number ? number.doubleValue() : Double.NaN;
            }
        }
        return Double.NaN;
    }

    // ---- poll ----------------------------------------------------------------------------------------------

    @Override
    public void poll(Duration timeout, SourceOutput<T> output) {
        throwPendingFailure();
        ConsumerRecords<byte[], byte[]> records;
        try {
            records = consumer.poll(timeout);
        } catch (RuntimeException e) {
            throwPendingFailure();
            throw classifyPollFailure(e);
        }
        throwPendingFailure();
        long now = clock.getAsLong();
        long away = lastPollNanos == 0 ? 0 : now - lastPollNanos - callbackNanos;
        lastPollNanos = now;
        callbackNanos = 0;
        if (away > config.sessionTimeout().plus(config.pollTimeout()).toNanos() && !closing
                && !ConsumerSettings.usesConsumerProtocol(config)) {
            awayNanos = away;
            rejoinAskedNanos = 0;
        }
        if (awayNanos > 0 && rejoinAskedNanos != 0 && now - rejoinAskedNanos > config.sessionTimeout().toNanos()) {
            // the group never called back: stop waiting for it rather than stall
            awayNanos = 0;
        }
        if (records.isEmpty()) {
            return;
        }
        if (awayNanos > 0) {
            rejoinBeforeProcessing(records, now);
            return;
        }
        for (ConsumerRecord<byte[], byte[]> r : records) {
            // the value bytes ride along by reference, so any stage can dead-letter the record as it was read
            RecordMeta meta = new RecordMeta(r.topic(), r.partition(), r.offset(), r.timestamp(), r.key(),
                    KafkaHeaderList.of(r.headers()), r.value());
            T value;
            try {
                value = decoder.decode(r.value(), meta);
            } catch (Exception e) {
                output.decodeFailed(meta, e);
                continue;
            }
            output.emit(value, meta);
        }
    }

    /**
     * Nothing ran on this consumer for longer than the session timeout (the JVM was frozen, stopped or
     * starved, heartbeats included), so the group may have handed its partitions to another member, which
     * is already writing them. Records fetched since then are not processed: each partition is rewound to
     * its first returned record and the consumer rejoins the group; until the group has called back
     * (partitions assigned or lost, bounded by the session timeout) every poll's records are rewound again. A member that was evicted learns so in
     * the next poll (its partitions are lost and replayed by their new owner); one that was not keeps its
     * partitions and reads those records again.
     */
    private void rejoinBeforeProcessing(ConsumerRecords<byte[], byte[]> records, long now) {
        for (TopicPartition tp : records.partitions()) {
            consumer.seek(tp, records.records(tp).get(0).offset());
        }
        if (rejoinAskedNanos != 0) {
            return; // still rejoining: a consumer keeps fetching the partitions it holds meanwhile
        }
        rejoinAskedNanos = now;
        LOG.warn("source '{}': nothing ran for {} ms, longer than session_timeout {} ms; the group may have moved"
                        + " its partitions, so it rejoins before processing {} record(s) fetched meanwhile",
                name, awayNanos / 1_000_000, config.sessionTimeout().toMillis(), records.count());
        try {
            consumer.enforceRebalance("no poll or heartbeat for longer than the session timeout");
        } catch (RuntimeException e) {
            // a client that cannot force it still learns of an eviction from its next heartbeat
            LOG.warn("source '{}': could not rejoin the group at once: {}", name, rootMessage(e));
        }
    }

    private void throwPendingFailure() {
        RuntimeException f = callbackFailure != null ? callbackFailure : commitFailure;
        if (f != null) {
            callbackFailure = null;
            commitFailure = null;
            throw f;
        }
    }

    private RuntimeException classifyPollFailure(RuntimeException e) {
        if (e instanceof InvalidOffsetException invalid) {
            return new FatalException("source '" + name + "': partitions " + invalid.partitions()
                    + " have no valid committed offset and auto_offset_reset is " + lower(config.autoOffsetReset()), e);
        }
        if (e instanceof FencedInstanceIdException) {
            return new FatalException("source '" + name + "': another instance joined group '" + config.groupId()
                    + "' with the same group_instance_id '" + config.groupInstanceId() + "'", e);
        }
        if (e instanceof AuthenticationException || e instanceof AuthorizationException) {
            return new FatalException("source '" + name + "': brokers " + config.brokers() + " refused the consumer: "
                    + rootMessage(e), e);
        }
        if (e instanceof KafkaException) {
            return new FatalException("source '" + name + "': polling failed: " + rootMessage(e), e);
        }
        return e;
    }

    // ---- commit --------------------------------------------------------------------------------------------

    @Override
    public void seek(Map<SourcePartition, Long> offsets) {
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : assignedOnly(offsets).entrySet()) {
            consumer.seek(e.getKey(), e.getValue().offset());
        }
        LOG.debug("source '{}': reading again from {}", name, offsets);
    }

    @Override
    public void commit(Map<SourcePartition, Long> offsets, boolean sync, CommitCallback done) {
        Map<TopicPartition, OffsetAndMetadata> commit = assignedOnly(offsets);
        Map<SourcePartition, Long> sent = sentOnly(offsets, commit);
        if (commit.isEmpty()) {
            done.completed(sent, null);
            return;
        }
        if (!sync) {
            OffsetCommitCallback callback = (stored, error) -> {
                onCommitted(stored, error);
                done.completed(sent, error);
            };
            try {
                consumer.commitAsync(commit, callback);
            } catch (RuntimeException e) {
                done.completed(sent, e);
                throw e;
            }
            return;
        }
        try {
            consumer.commitSync(commit, SYNC_COMMIT_TIMEOUT);
            commitsOk.increment();
            done.completed(sent, null);
        } catch (CommitFailedException | RebalanceInProgressException e) {
            commitsFailed.increment();
            LOG.warn("source '{}': commit of {} failed because the group is rebalancing ({}); the partitions' next"
                    + " owner replays from the last committed offsets", name, commit, e.getMessage());
            done.completed(sent, e);
        } catch (FencedInstanceIdException e) {
            commitsFailed.increment();
            done.completed(sent, e);
            throw classifyPollFailure(e);
        } catch (RuntimeException e) {
            commitsFailed.increment();
            FatalException fatal = new FatalException("source '" + name + "': committing offsets " + commit
                    + " failed within " + Durations.format(SYNC_COMMIT_TIMEOUT) + ": " + rootMessage(e), e);
            done.completed(sent, fatal);
            throw fatal;
        }
    }

    /** The entries of {@code offsets} that {@code commit} holds (those of partitions still assigned). */
    private Map<SourcePartition, Long> sentOnly(Map<SourcePartition, Long> offsets,
                                               Map<TopicPartition, OffsetAndMetadata> commit) {
        if (commit.size() == offsets.size()) {
            return offsets;
        }
        Map<SourcePartition, Long> out = new HashMap<>(commit.size() * 2);
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : commit.entrySet()) {
            out.put(assigned.get(e.getKey()), e.getValue().offset());
        }
        return out;
    }

    /** The offsets of partitions still assigned; anything else belongs to another member now. */
    private Map<TopicPartition, OffsetAndMetadata> assignedOnly(Map<SourcePartition, Long> offsets) {
        Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>(offsets.size() * 2);
        for (Map.Entry<SourcePartition, Long> e : offsets.entrySet()) {
            TopicPartition tp = byPartition.get(e.getKey());
            if (tp != null) {
                out.put(tp, new OffsetAndMetadata(e.getValue()));
            } else {
                LOG.debug("source '{}': not committing {} for {}: no longer assigned", name, e.getValue(), e.getKey());
            }
        }
        return out;
    }

    private void onCommitted(Map<TopicPartition, OffsetAndMetadata> offsets, Exception error) {
        if (error == null) {
            commitsOk.increment();
            return;
        }
        if (error instanceof RebalanceInProgressException) {
            // expected while a cooperative rebalance is under way; the next commit (or the revoke commit) covers it
            commitsDeferred.increment();
            LOG.debug("source '{}': commit of {} deferred: the group is rebalancing", name, offsets);
            return;
        }
        commitsFailed.increment();
        if (error instanceof FencedInstanceIdException || error instanceof AuthorizationException) {
            commitFailure = classifyPollFailure((RuntimeException) error);
        } else {
            LOG.warn("source '{}': asynchronous commit of {} failed: {}; the next commit covers it", name, offsets,
                    rootMessage(error));
        }
    }

    // ---- pause / resume ------------------------------------------------------------------------------------

    @Override
    public void pause() {
        paused = true;
        if (!assigned.isEmpty()) {
            consumer.pause(assigned.keySet());
        }
    }

    @Override
    public void resume() {
        paused = false;
        Collection<TopicPartition> p = consumer.paused();
        if (!p.isEmpty()) {
            consumer.resume(p);
        }
    }

    // ---- rebalance (inside poll, on the pipeline thread) -----------------------------------------------------

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        awayNanos = 0; // the group has settled what this member owns since it was away
        rejoinAskedNanos = 0;
        if (partitions.isEmpty()) {
            return;
        }
        List<SourcePartition> added = new ArrayList<>(partitions.size());
        for (TopicPartition tp : partitions) {
            SourcePartition sp = new SourcePartition(tp.topic(), tp.partition());
            assigned.put(tp, sp);
            byPartition.put(sp, tp);
            added.add(sp);
        }
        if (paused) {
            consumer.pause(partitions);
        }
        assignedEvents.increment();
        LOG.info("source '{}': assigned {}{}", name, added, paused ? " (paused: the pipeline is backpressured)" : "");
        if (closing) {
            return;
        }
        try {
            listener.onAssigned(added);
        } catch (RuntimeException e) {
            rememberCallbackFailure(e);
        }
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        List<SourcePartition> revoked = partitionsOf(partitions);
        revokedEvents.increment();
        long started = clock.getAsLong();
        try {
            if (closing || callbackFailure != null) {
                return;
            }
            Map<SourcePartition, Long> safe;
            try {
                safe = listener.onRevoked(revoked, config.revokeTimeout());
            } catch (RuntimeException e) {
                rememberCallbackFailure(e);
                return;
            }
            Map<TopicPartition, OffsetAndMetadata> commit = assignedOnly(safe);
            if (!commit.isEmpty()) {
                try {
                    consumer.commitSync(commit, config.revokeTimeout());
                    commitsOk.increment();
                    LOG.info("source '{}': revoked {}, committed {}", name, revoked, commit);
                } catch (FencedInstanceIdException e) {
                    commitsFailed.increment();
                    rememberCallbackFailure(classifyPollFailure(e));
                } catch (RuntimeException e) {
                    commitsFailed.increment();
                    LOG.warn("source '{}': commit of revoked partitions {} failed: {}; their next owner replays from"
                            + " the last committed offsets (duplicates, no loss)", name, commit, rootMessage(e));
                }
            } else {
                LOG.info("source '{}': revoked {}, nothing to commit", name, revoked);
            }
        } finally {
            release(partitions);
            // waiting for the revoked partitions' output is not being away
            callbackNanos += clock.getAsLong() - started;
        }
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
        awayNanos = 0;
        rejoinAskedNanos = 0;
        if (partitions.isEmpty()) {
            return;
        }
        List<SourcePartition> lost = partitionsOf(partitions);
        lostEvents.increment();
        release(partitions);
        LOG.warn("source '{}': lost {} without a chance to commit; their next owner replays them", name, lost);
        if (closing) {
            return;
        }
        try {
            listener.onLost(lost);
        } catch (RuntimeException e) {
            rememberCallbackFailure(e);
        }
    }

    private List<SourcePartition> partitionsOf(Collection<TopicPartition> partitions) {
        List<SourcePartition> out = new ArrayList<>(partitions.size());
        for (TopicPartition tp : partitions) {
            SourcePartition sp = assigned.get(tp);
            out.add(sp != null ? sp : new SourcePartition(tp.topic(), tp.partition()));
        }
        return out;
    }

    private void release(Collection<TopicPartition> partitions) {
        for (TopicPartition tp : new HashSet<>(partitions)) {
            SourcePartition sp = assigned.remove(tp);
            if (sp != null) {
                byPartition.remove(sp);
            }
        }
    }

    private void rememberCallbackFailure(RuntimeException e) {
        if (callbackFailure == null) {
            callbackFailure = e;
        }
    }

    // ---- close ---------------------------------------------------------------------------------------------

    @Override
    public void close(Duration timeout) {
        closing = true;
        if (clientMetrics != null) {
            // first, so the binder's refresh never reads a closed consumer
            clientMetrics.close();
            clientMetrics = null;
        }
        try {
            if (consumer != null) {
                consumer.close(CloseOptions.timeout(timeout)
                        .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
                LOG.info("source '{}': left group '{}'", name, config.groupId());
            }
        } finally {
            if (registry != null) {
                gauges.forEach(registry::remove);
                gauges.clear();
            }
        }
    }

    @Override
    public String toString() {
        return "KafkaSource[" + name + ", group=" + config.groupId() + ", decoder=" + decoder + "]";
    }

    private static String lower(Enum<?> e) {
        return e.name().toLowerCase(java.util.Locale.ROOT);
    }

    static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String msg = root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
        return root == t ? msg : t.getMessage() + " (" + root.getClass().getSimpleName() + ": " + msg + ")";
    }
}
