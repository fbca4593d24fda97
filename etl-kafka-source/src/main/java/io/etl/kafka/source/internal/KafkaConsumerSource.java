package io.etl.kafka.source.internal;

import io.etl.core.config.RetryTopicsConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.FatalException;
import io.etl.core.error.RetryableException;
import io.etl.core.record.RecordMeta;
import io.etl.core.source.CommitCallback;
import io.etl.core.source.SourceContext;
import io.etl.core.source.SourceOutput;
import io.etl.core.source.SourcePartition;
import io.etl.kafka.common.FormatContext;
import io.etl.kafka.common.internal.ClientProperties;
import io.etl.kafka.common.internal.ClusterUse;
import io.etl.kafka.common.internal.KafkaClusterUser;
import io.etl.kafka.common.internal.KafkaErrors;
import io.etl.kafka.common.internal.KafkaTransactionLink;
import io.etl.kafka.common.internal.SharedClusterProbe;
import io.etl.kafka.source.Decoder;
import io.etl.kafka.source.KafkaSource;
import io.etl.kafka.source.KafkaSourceConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka consumer-group source: opens the consumer, polls and decodes, commits, pauses and closes.
 * Everything, including the rebalance callbacks ({@link RebalanceHandler}) and commit callbacks, runs on the
 * pipeline thread that calls {@link #poll}, so no state here needs a lock.
 *
 * <p>The partitions this instance may commit for are {@link AssignedPartitions}: only the rebalance callbacks
 * change them, so a commit requested for a partition that was revoked or lost in the meantime is dropped
 * rather than overwriting what the partition's new owner commits. Its meters are {@link SourceMeters}, its
 * error wording {@link ConsumerErrorClassifier}, failures it cannot throw at once wait in
 * {@link PendingFailures}, and a frozen JVM is seen by {@link SessionWatch}.
 *
 * @param <T> decoded value type
 */
public final class KafkaConsumerSource<T> implements KafkaSource<T>, KafkaClusterUser {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaConsumerSource.class);

    /** SASL mechanisms whose login only reads the configuration. */

    /** The callback of the empty commit that {@link #completeCommits()} sends: it stores nothing and cannot fail. */
    private static final OffsetCommitCallback NOTHING_COMMITTED = (offsets, error) -> {};

    /** Bound of a synchronous commit outside a rebalance (the final commit at shutdown). */
    static final Duration SYNC_COMMIT_TIMEOUT = Duration.ofSeconds(10);

    private final String name;
    private final KafkaSourceConfig config;
    private final ErrorPolicy onError;
    private final Decoder<T> decoder;
    private final Function<Map<String, Object>, Consumer<byte[], byte[]>> consumerFactory;
    private final boolean startupCheck;
    private final String path;

    private final AssignedPartitions assigned;
    private final ConsumerErrorClassifier errors;
    /** Monotonic time in nanoseconds; a test replaces it to simulate a frozen JVM. */
    LongSupplier clock = System::nanoTime;
    /** Wall-clock time in milliseconds, which the due times of retry records are in. */
    LongSupplier wallClock = System::currentTimeMillis;

    private final SessionWatch watch;

    private Consumer<byte[], byte[]> consumer;
    private SourceMeters meters;
    private OffsetResets resets;
    private RebalanceHandler rebalance;
    private boolean paused;
    private boolean closing;
    /** The pipeline run, whose shared cluster probes closing closes. */
    private String runId;

    private final PendingFailures failures = new PendingFailures();
    /** A record the decoder could not decode yet (a schema registry that does not answer), and its backoff. */
    private final DecodeWait decodeWait;
    /** The retry topics read besides the source's own, when the pipeline has some; null otherwise. */
    private RetryDelays retries;

    /**
     * @param consumerFactory makes the consumer from its properties ({@code KafkaConsumer::new} in production)
     * @param startupCheck    whether {@link #open} first checks the brokers and topics with an admin client
     */
    public KafkaConsumerSource(
            String name,
            KafkaSourceConfig config,
            ErrorPolicy onError,
            Decoder<T> decoder,
            Function<Map<String, Object>, Consumer<byte[], byte[]>> consumerFactory,
            boolean startupCheck) {
        this.name = Objects.requireNonNull(name, "name");
        this.config = Objects.requireNonNull(config, "config");
        this.onError = onError == null ? ErrorPolicy.FAIL : onError;
        this.decoder = Objects.requireNonNull(decoder, "decoder");
        this.consumerFactory = Objects.requireNonNull(consumerFactory, "consumerFactory");
        this.startupCheck = startupCheck;
        this.path = "source." + name + ".kafka";
        this.assigned = new AssignedPartitions(name);
        this.errors = new ConsumerErrorClassifier(name, config);
        this.watch = new SessionWatch(config.sessionTimeout(), config.pollTimeout());
        this.decodeWait = new DecodeWait(name);
    }

    /** A source with a real {@link KafkaConsumer} and the startup check. */
    public static <T> KafkaConsumerSource<T> create(
            String name, KafkaSourceConfig config, ErrorPolicy onError, Decoder<T> decoder) {
        return new KafkaConsumerSource<>(name, config, onError, decoder, KafkaConsumer::new, true);
    }

    /**
     * The same source for one of {@code loops} loops of a pipeline: its own consumer, a member of the same group,
     * sharing this source's decoder. A static member id ({@code group_instance_id}) becomes
     * {@code <id>-<loop>}, as Kafka Streams names the members of its stream threads, so that the loops do not
     * fence each other.
     */
    @Override
    public KafkaConsumerSource<T> forLoop(int loop, int loops) {
        if (loop < 1 || loop > loops) {
            throw new IllegalArgumentException("loop " + loop + " of " + loops);
        }
        KafkaSourceConfig own = config.groupInstanceId() == null || loops == 1
                ? config
                : config.withGroupInstanceId(config.groupInstanceId() + "-" + loop);
        KafkaConsumerSource<T> copy =
                new KafkaConsumerSource<>(name, own, onError, decoder, consumerFactory, startupCheck);
        copy.clock = clock;
        copy.wallClock = wallClock;
        return copy;
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
        List<String> topics = config.topics().isEmpty() ? Collections.singletonList(null) : config.topics();
        List<ClusterUse> uses = new ArrayList<>();
        for (String topic : topics) {
            uses.add(ClusterUse.read(path, connection, topic, config.groupId())
                    .withPrincipalOf(config.security())
                    .withRefusedTimeout(config.refusedTimeout()));
        }
        return uses;
    }

    // ---- open ----------------------------------------------------------------------------------------------

    @Override
    public void open(SourceContext context) {
        runId = context.runId();
        if (consumer != null) {
            throw new IllegalStateException("source '" + name + "' is already open");
        }
        List<ConfigProblem> problems = SourceConfigCheck.problems(config, path);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        decoder.open(new FormatContext(
                "source '" + name + "'",
                path,
                config.topics(),
                config.schemaRegistry(),
                context.meterRegistry(),
                context.tags()));
        Map<String, Object> props = ConsumerSettings.consumer(config, path);
        boolean exactlyOnce = context.run().exactlyOnce();
        if (exactlyOnce) {
            // exactly-once pipelines chain: read only what an upstream transaction committed, unless told otherwise
            props.putIfAbsent(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        }
        RetryTopicsConfig retry = RetryTopicSetup.prepare(context, config, path, props);
        LOG.debug("source '{}': consumer properties {}", name, ClientProperties.redacted(props));
        boolean consumerProtocol = ConsumerSettings.usesConsumerProtocol(config);
        if (consumerProtocol) {
            LOG.info(
                    "source '{}': group.protocol=consumer: session timeout and assignment strategy are the broker's"
                            + " (group.consumer.*); session_timeout is not used",
                    name);
        }
        consumer = new ConsumerOpening(consumerFactory, config, path, errors)
                .open(props, startupCheck ? context.runId() : null, startupCheck, consumerProtocol);
        if (retry != null) {
            try {
                retries = RetryTopicSetup.open(name, config, retry, path, context, startupCheck);
            } catch (RuntimeException e) {
                consumer.close(CloseOptions.timeout(Duration.ZERO));
                throw e;
            }
        }
        meters = SourceMeters.register(context, name, config, consumer, assigned);
        resets = new OffsetResets(name, config, consumer, meters);
        rebalance = new RebalanceHandler(
                name,
                config.revokeTimeout(),
                consumer,
                context.listener(),
                assigned,
                meters,
                watch,
                errors,
                failures,
                () -> clock.getAsLong(),
                () -> paused || decodeWait.holding(),
                () -> closing);
        if (exactlyOnce) {
            Consumer<byte[], byte[]> c = consumer;
            context.run()
                    .computeIfAbsent(KafkaTransactionLink.class, KafkaTransactionLink::new)
                    .attach(c::groupMetadata, config.groupInstanceId());
        }
        if (config.topics().isEmpty()) {
            consumer.subscribe(Pattern.compile(config.topicPattern()), rebalance);
            LOG.info(
                    "source '{}': group '{}' subscribed to topics matching /{}/",
                    name,
                    config.groupId(),
                    config.topicPattern());
        } else {
            List<String> topics = retries == null ? config.topics() : retries.withRetryTopics(config.topics());
            consumer.subscribe(topics, rebalance);
            LOG.info("source '{}': group '{}' subscribed to {}", name, config.groupId(), topics);
        }
    }

    // ---- poll ----------------------------------------------------------------------------------------------

    @Override
    public void poll(Duration timeout, SourceOutput<T> output) {
        failures.throwIfAny();
        if (decodeWait.waiting()) {
            retryDecodeWhenDue();
        }
        if (retries != null && retries.size() > 0) {
            resumeDueRetries();
        }
        ConsumerRecords<byte[], byte[]> records;
        try {
            records = consumer.poll(timeout);
        } catch (RuntimeException e) {
            failures.throwIfAny();
            if (resets.resolve(e)) {
                return;
            }
            throw errors.classify(e);
        }
        failures.throwIfAny();
        long now = clock.getAsLong();
        watch.polled(now, !closing && !ConsumerSettings.usesConsumerProtocol(config));
        if (records.isEmpty()) {
            return;
        }
        if (watch.away()) {
            rejoinBeforeProcessing(records, now);
            return;
        }
        long nowMillis = retries == null ? 0 : wallClock.getAsLong();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            if (retries != null && retries.holdsBack(r, consumer, nowMillis)) {
                continue;
            }
            // the value bytes ride along by reference, so any stage can dead-letter the record as it was read
            RecordMeta meta = new RecordMeta(
                    r.topic(),
                    r.partition(),
                    r.offset(),
                    r.timestamp(),
                    r.key(),
                    KafkaHeaderList.of(r.headers()),
                    r.value());
            T value;
            try {
                value = decoder.decode(r.value(), meta);
            } catch (RetryableException e) {
                waitToDecode(records, r, e);
                return;
            } catch (Exception e) {
                if (decodeWait.waiting()) {
                    // the record that waited has its answer now, even if it is a record error
                    decodeWait.decoded(r.topic(), r.partition(), r.offset(), clock.getAsLong());
                }
                output.decodeFailed(meta, e);
                continue;
            }
            if (decodeWait.waiting()) {
                decodeWait.decoded(r.topic(), r.partition(), r.offset(), clock.getAsLong());
            }
            output.emit(value, meta);
        }
    }

    /**
     * The decoder cannot decode {@code failed} yet: every record of this poll from it on is given back (each
     * partition is rewound to its first record not handed over) and the partitions pause until the backoff has
     * passed. {@link ConsumerRecords} iterates its partitions in the order {@link ConsumerRecords#partitions()}
     * lists them, so the partitions listed before {@code failed}'s were handed over whole.
     */
    private void waitToDecode(
            ConsumerRecords<byte[], byte[]> records, ConsumerRecord<byte[], byte[]> failed, RetryableException e) {
        TopicPartition at = new TopicPartition(failed.topic(), failed.partition());
        boolean after = false;
        for (TopicPartition tp : records.partitions()) {
            if (tp.equals(at)) {
                consumer.seek(tp, failed.offset());
                after = true;
            } else if (after) {
                consumer.seek(tp, records.records(tp).get(0).offset());
            }
        }
        decodeWait.failed(at, failed.offset(), e, clock.getAsLong());
        if (!assigned.isEmpty()) {
            consumer.pause(assigned.topicPartitions());
        }
    }

    /** After the backoff, resumes the partitions (unless the pipeline paused them) to fetch the record again. */
    private void retryDecodeWhenDue() {
        TopicPartition waiting = decodeWait.partition();
        if (waiting != null && !assigned.topicPartitions().contains(waiting)) {
            decodeWait.end(); // the partition went to another member, which decodes its records now
        } else if (!decodeWait.due(clock.getAsLong())) {
            return;
        }
        if (!paused) {
            resumePaused();
        }
    }

    /** Resumes the retry-topic partitions whose next record is due, unless something else keeps them paused. */
    private void resumeDueRetries() {
        List<TopicPartition> due = retries.due(wallClock.getAsLong(), assigned.topicPartitions());
        if (!due.isEmpty() && !paused && !decodeWait.holding()) {
            consumer.resume(due);
        }
    }

    /** Resumes every paused partition but the retry-topic partitions whose next record is not due yet. */
    private void resumePaused() {
        Collection<TopicPartition> p = consumer.paused();
        if (retries != null) {
            p = retries.resumable(p);
        }
        if (!p.isEmpty()) {
            consumer.resume(p);
        }
    }

    /** Why the source waits, while a record cannot be decoded yet. */
    @Override
    public Optional<String> waitingFor() {
        return Optional.ofNullable(decodeWait.reason());
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
        if (!watch.askRejoin(now)) {
            return; // still rejoining: a consumer keeps fetching the partitions it holds meanwhile
        }
        LOG.warn(
                "source '{}': nothing ran for {} ms, longer than session_timeout {} ms; the group may have moved"
                        + " its partitions, so it rejoins before processing {} record(s) fetched meanwhile",
                name,
                watch.awayMillis(),
                config.sessionTimeout().toMillis(),
                records.count());
        try {
            consumer.enforceRebalance("no poll or heartbeat for longer than the session timeout");
        } catch (RuntimeException e) {
            // a client that cannot force it still learns of an eviction from its next heartbeat
            LOG.warn("source '{}': could not rejoin the group at once: {}", name, KafkaErrors.rootMessage(e));
        }
    }

    // ---- commit --------------------------------------------------------------------------------------------

    @Override
    public void seek(Map<SourcePartition, Long> offsets) {
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e :
                assigned.heldOnly(offsets).entrySet()) {
            consumer.seek(e.getKey(), e.getValue().offset());
        }
        LOG.debug("source '{}': reading again from {}", name, offsets);
    }

    /**
     * An empty asynchronous commit runs the callbacks of the commits that completed, and the classic consumer
     * reads its connections once without blocking. Its poll does not read them while it still holds fetched
     * records, so without this a commit's response waits until a whole fetch (several polls) is used up.
     */
    @Override
    public void completeCommits() {
        try {
            consumer.commitAsync(Map.of(), NOTHING_COMMITTED);
        } catch (RuntimeException e) {
            throw errors.classify(e);
        }
    }

    @Override
    public void commit(Map<SourcePartition, Long> offsets, boolean sync, CommitCallback done) {
        Map<TopicPartition, OffsetAndMetadata> commit = assigned.heldOnly(offsets);
        Map<SourcePartition, Long> sent = assigned.sentOnly(offsets, commit);
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
            try {
                consumer.commitSync(commit, SYNC_COMMIT_TIMEOUT);
            } catch (RebalanceInProgressException e) {
                commit = RebalancingCommit.commit(name, consumer, assigned, offsets, SYNC_COMMIT_TIMEOUT, e);
            }
            meters.committed();
            done.completed(assigned.sentOnly(offsets, commit), null);
        } catch (CommitFailedException | RebalanceInProgressException e) {
            meters.commitFailed();
            LOG.warn(
                    "source '{}': commit of {} failed because the group is rebalancing ({}); the partitions' next"
                            + " owner replays from the last committed offsets",
                    name,
                    commit,
                    e.getMessage());
            done.completed(sent, e);
        } catch (FencedInstanceIdException e) {
            meters.commitFailed();
            done.completed(sent, e);
            throw errors.classify(e);
        } catch (RuntimeException e) {
            meters.commitFailed();
            FatalException fatal = errors.commitFailed(commit, SYNC_COMMIT_TIMEOUT, e);
            done.completed(sent, fatal);
            throw fatal;
        }
    }

    private void onCommitted(Map<TopicPartition, OffsetAndMetadata> offsets, Exception error) {
        if (error == null) {
            meters.committed();
            return;
        }
        if (error instanceof RebalanceInProgressException) {
            // expected while a cooperative rebalance is under way; the next commit (or the revoke commit) covers it
            meters.commitDeferred();
            LOG.debug("source '{}': commit of {} deferred: the group is rebalancing", name, offsets);
            return;
        }
        meters.commitFailed();
        if (ConsumerErrorClassifier.stopsCommitting(error)) {
            failures.commitFailed(errors.classify((RuntimeException) error));
        } else {
            LOG.warn(
                    "source '{}': asynchronous commit of {} failed: {}; the next commit covers it",
                    name,
                    offsets,
                    KafkaErrors.rootMessage(error));
        }
    }

    // ---- pause / resume ------------------------------------------------------------------------------------

    @Override
    public void pause() {
        paused = true;
        if (!assigned.isEmpty()) {
            consumer.pause(assigned.topicPartitions());
        }
    }

    @Override
    public void resume() {
        paused = false;
        if (decodeWait.holding()) {
            return; // a record waits to be decoded: the partitions resume when its backoff has passed
        }
        resumePaused();
    }

    // ---- close ---------------------------------------------------------------------------------------------

    @Override
    public void close(Duration timeout) {
        closing = true;
        if (meters != null) {
            // first, so the binder's refresh never reads a closed consumer
            meters.stopClientMetrics();
        }
        try {
            if (consumer != null) {
                consumer.close(CloseOptions.timeout(timeout)
                        .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
                LOG.info("source '{}': left group '{}'", name, config.groupId());
            }
        } finally {
            if (meters != null) {
                meters.removeGauges();
            }
            SharedClusterProbe.closeIdle(runId);
        }
    }

    @Override
    public String toString() {
        return "KafkaSource[" + name + ", group=" + config.groupId() + ", decoder=" + decoder + "]";
    }
}
