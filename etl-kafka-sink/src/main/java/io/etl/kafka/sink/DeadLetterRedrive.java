package io.etl.kafka.sink;

import io.etl.core.error.DeadLetter;
import io.etl.core.error.RetryLetter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Replays the records of a dead-letter topic, once the cause is fixed: each dead letter's original key, value and
 * headers (without its {@code etl.dlq.*} headers, nor the {@code etl.retry.*} headers of a record that went through
 * retry topics: it starts afresh) is written again to a topic, by default the one it was first read from (its
 * {@value RetryLetter#TOPIC_HEADER} header when it came through retry topics, else its
 * {@value DeadLetter#SOURCE_HEADER}), with {@value #REDRIVEN_FROM_HEADER} and {@value #REDRIVE_COUNT_HEADER} added.
 * Filters pick dead letters by stage ({@code operator:parse}, or a pattern such as {@code produce:*}), by reason
 * ({@code decode}, {@code operator}, ...) and by when they were rejected ({@link #since}, {@link #until}). The topic is
 * read from its beginning to the end it had when the redrive started; {@link #plan()} only reads, {@link #execute()}
 * writes too, with an idempotent {@code acks=all} producer.
 *
 * <pre>{@code
 * DeadLetterRedrive redrive = DeadLetterRedrive.from(Map.of("bootstrap.servers", "kafka-1:9092"), "orders-dlq")
 *         .stage("operator:parse")
 *         .onEach(letter -> System.out.println(letter));
 * DeadLetterRedrive.Report plan = redrive.plan();      // what would be written where; nothing is sent
 * DeadLetterRedrive.Report done = redrive.execute();   // written and acknowledged
 * }</pre>
 *
 * <p>A redrive is not remembered: running it twice writes the records twice. A dead letter whose value was too large
 * for the dead-letter topic ({@code etl.dlq.value.dropped}) is reported, never written empty.
 */
public final class DeadLetterRedrive {

    /** Set on every record written: the dead letter's position, {@code <topic>-<partition>@<offset>}. */
    public static final String REDRIVEN_FROM_HEADER = "etl.redrive.from";
    /** Set on every record written: how many times the record has been redriven, 1 the first time. */
    public static final String REDRIVE_COUNT_HEADER = "etl.redrive.count";
    /** Default bound of reading the topic (and of writing, with {@link #execute()}). */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private static final String VALUE_DROPPED_HEADER = "etl.dlq.value.dropped";

    private final Map<String, Object> clientProperties;
    private final String deadLetterTopic;
    private final List<Pattern> stages = new ArrayList<>();
    private final List<String> stagePatterns = new ArrayList<>();
    private final List<String> reasons = new ArrayList<>();
    private String target;
    private Instant since;
    private Instant until;
    private long limit = Long.MAX_VALUE;
    private Duration timeout = DEFAULT_TIMEOUT;
    private Consumer<Letter> onEach = letter -> {};

    private DeadLetterRedrive(Map<String, ?> clientProperties, String deadLetterTopic) {
        this.clientProperties = new HashMap<>(Objects.requireNonNull(clientProperties, "clientProperties"));
        if (!this.clientProperties.containsKey(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG)) {
            throw new IllegalArgumentException("client properties need bootstrap.servers");
        }
        this.deadLetterTopic = Objects.requireNonNull(deadLetterTopic, "deadLetterTopic");
    }

    /**
     * A redrive of {@code deadLetterTopic} on the cluster {@code clientProperties} reach ({@code bootstrap.servers}
     * and the security settings, as for any Kafka client).
     */
    public static DeadLetterRedrive from(Map<String, ?> clientProperties, String deadLetterTopic) {
        return new DeadLetterRedrive(clientProperties, deadLetterTopic);
    }

    /**
     * Only dead letters of this stage: {@code decode}, {@code operator:parse}, or a pattern with {@code *} such as
     * {@code operator:*}. Several stages add up (any of them); none means every stage.
     */
    public DeadLetterRedrive stage(String pattern) {
        Objects.requireNonNull(pattern, "pattern");
        stagePatterns.add(pattern);
        stages.add(Pattern.compile(Pattern.quote(pattern).replace("*", "\\E.*\\Q")));
        return this;
    }

    /**
     * Only dead letters with this reason ({@value DeadLetter#REASON_HEADER}): {@code decode}, {@code operator},
     * {@code encode}, {@code oversized}, {@code produce}. Several add up; none means every reason.
     */
    public DeadLetterRedrive reason(String value) {
        reasons.add(Objects.requireNonNull(value, "reason"));
        return this;
    }

    /**
     * Only dead letters rejected at or after {@code instant} ({@value DeadLetter#TIMESTAMP_HEADER}, or the dead
     * letter's own timestamp when it has none).
     */
    public DeadLetterRedrive since(Instant instant) {
        this.since = Objects.requireNonNull(instant, "since");
        return this;
    }

    /** Only dead letters rejected before {@code instant} (see {@link #since}). */
    public DeadLetterRedrive until(Instant instant) {
        this.until = Objects.requireNonNull(instant, "until");
        return this;
    }

    /** Writes every dead letter to {@code topic} instead of the topic it was first read from. */
    public DeadLetterRedrive to(String topic) {
        this.target = Objects.requireNonNull(topic, "topic");
        return this;
    }

    /** Stops after {@code max} matching dead letters. */
    public DeadLetterRedrive limit(long max) {
        if (max < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + max);
        }
        this.limit = max;
        return this;
    }

    /** Bounds reading the topic, and writing with {@link #execute()} (default 60 s). */
    public DeadLetterRedrive timeout(Duration value) {
        this.timeout = Objects.requireNonNull(value, "timeout");
        return this;
    }

    /** Called with every matching dead letter, in the order read (per partition), e.g. to print it. */
    public DeadLetterRedrive onEach(Consumer<Letter> listener) {
        this.onEach = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /**
     * One matching dead letter.
     *
     * @param position where it is in the dead-letter topic, {@code <topic>-<partition>@<offset>}
     * @param source   where it was first read ({@value DeadLetter#SOURCE_HEADER}), or null
     * @param stage    {@value DeadLetter#STAGE_HEADER}, or null
     * @param reason   {@value DeadLetter#REASON_HEADER}, or null (written before reasons were recorded)
     * @param error    {@value DeadLetter#ERROR_HEADER}, or null
     * @param target   the topic it is (or would be) written to, or null when it has none
     * @param problem  why it cannot be redriven (no target, value not kept), or null
     * @param rejected when it was rejected ({@value DeadLetter#TIMESTAMP_HEADER}, else the dead letter's timestamp)
     */
    public record Letter(
            String position,
            String source,
            String stage,
            String reason,
            String error,
            String target,
            String problem,
            Instant rejected) {

        /** Whether it is (or would be) written. */
        public boolean redrivable() {
            return problem == null;
        }
    }

    /**
     * What a redrive did, or would do.
     *
     * @param read          dead letters read
     * @param matched       dead letters the filters kept
     * @param sent          records written and acknowledged ({@code 0} for a {@link #plan()})
     * @param unredrivable  matching dead letters that cannot be written (see {@link Letter#problem()})
     * @param failed        records whose write failed ({@link #execute()} only)
     * @param byTarget      matching, redrivable dead letters per target topic
     * @param firstFailure  the first write failure, or null
     */
    public record Report(
            long read,
            long matched,
            long sent,
            long unredrivable,
            long failed,
            Map<String, Long> byTarget,
            String firstFailure) {

        /** Copies. */
        public Report {
            byTarget = Map.copyOf(byTarget);
        }
    }

    /** Reads and filters the dead letters and reports what {@link #execute()} would write; writes nothing. */
    public Report plan() {
        return run(false);
    }

    /**
     * Writes the matching dead letters, waits for every acknowledgement, and reports.
     *
     * @throws IllegalArgumentException naming a target topic that does not exist
     */
    public Report execute() {
        return run(true);
    }

    private Report run(boolean send) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, Long> byTarget = new LinkedHashMap<>();
        long read = 0;
        long matched = 0;
        long unredrivable = 0;
        List<Future<RecordMetadata>> sends = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties());
                Admin admin = send ? Admin.create(adminProperties()) : null;
                KafkaProducer<byte[], byte[]> producer = send ? new KafkaProducer<>(producerProperties()) : null) {
            Map<TopicPartition, Long> ends = assignFromBeginning(consumer);
            Set<String> checked = new HashSet<>();
            while (!caughtUp(consumer, ends) && matched < limit) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("reading dead-letter topic '" + deadLetterTopic
                            + "' did not reach its end within " + timeout.toSeconds() + "s");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.offset()
                            >= ends.getOrDefault(new TopicPartition(record.topic(), record.partition()), 0L)) {
                        continue;
                    }
                    read++;
                    Letter letter = letter(record);
                    if (!matches(letter)) {
                        continue;
                    }
                    matched++;
                    onEach.accept(letter);
                    if (!letter.redrivable()) {
                        unredrivable++;
                    } else {
                        byTarget.merge(letter.target(), 1L, Long::sum);
                        if (send) {
                            if (checked.add(letter.target())) {
                                requireTopic(admin, letter.target(), deadline);
                            }
                            sends.add(producer.send(redriven(record, letter)));
                        }
                    }
                    if (matched >= limit) {
                        break;
                    }
                }
            }
            if (send) {
                producer.flush();
            }
        }
        long sent = 0;
        long failed = 0;
        String firstFailure = null;
        for (Future<RecordMetadata> f : sends) {
            try {
                f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                sent++;
            } catch (ExecutionException | TimeoutException e) {
                failed++;
                Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
                firstFailure = firstFailure != null
                        ? firstFailure
                        : cause.getClass().getSimpleName() + ": " + cause.getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the redriven records", e);
            }
        }
        return new Report(read, matched, sent, unredrivable, failed, byTarget, firstFailure);
    }

    /** Assigns every partition of the dead-letter topic from its beginning; returns the ends to read up to. */
    private Map<TopicPartition, Long> assignFromBeginning(KafkaConsumer<byte[], byte[]> consumer) {
        List<PartitionInfo> partitions = consumer.partitionsFor(deadLetterTopic, timeout);
        if (partitions == null || partitions.isEmpty()) {
            throw new IllegalArgumentException("dead-letter topic '" + deadLetterTopic + "' does not exist");
        }
        List<TopicPartition> assigned = partitions.stream()
                .map(p -> new TopicPartition(p.topic(), p.partition()))
                .toList();
        consumer.assign(assigned);
        consumer.seekToBeginning(assigned);
        return consumer.endOffsets(assigned, timeout);
    }

    private static boolean caughtUp(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> ends) {
        for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private Letter letter(ConsumerRecord<byte[], byte[]> record) {
        Headers headers = record.headers();
        String source = text(headers, DeadLetter.SOURCE_HEADER);
        // a record that went through retry topics was rejected in one of them: it belongs to the topic it came from
        String firstTopic = text(headers, RetryLetter.TOPIC_HEADER);
        String sourceTopic = firstTopic != null ? firstTopic : source == null ? null : topicOf(source);
        String to = target != null ? target : sourceTopic;
        String problem = null;
        if (to == null) {
            problem = "no " + DeadLetter.SOURCE_HEADER + " header to say where it came from; name a topic";
        } else if (headers.lastHeader(VALUE_DROPPED_HEADER) != null) {
            problem = "its value (" + text(headers, VALUE_DROPPED_HEADER)
                    + " bytes) did not fit the dead-letter topic and was not kept; read it at " + source;
        }
        return new Letter(
                record.topic() + "-" + record.partition() + "@" + record.offset(),
                source,
                text(headers, DeadLetter.STAGE_HEADER),
                text(headers, DeadLetter.REASON_HEADER),
                text(headers, DeadLetter.ERROR_HEADER),
                to,
                problem,
                Instant.ofEpochMilli(rejectedAt(headers, record.timestamp())));
    }

    /** {@value DeadLetter#TIMESTAMP_HEADER}, or {@code fallback} when it is missing or not a number. */
    private static long rejectedAt(Headers headers, long fallback) {
        String text = text(headers, DeadLetter.TIMESTAMP_HEADER);
        if (text != null) {
            try {
                return Long.parseLong(text.trim());
            } catch (NumberFormatException e) {
                // the record's own timestamp then
            }
        }
        return fallback;
    }

    private boolean matches(Letter letter) {
        boolean stageMatches = stages.isEmpty()
                || (letter.stage() != null
                        && stages.stream()
                                .anyMatch(p -> p.matcher(letter.stage()).matches()));
        boolean reasonMatches = reasons.isEmpty() || (letter.reason() != null && reasons.contains(letter.reason()));
        boolean timeMatches = (since == null || !letter.rejected().isBefore(since))
                && (until == null || letter.rejected().isBefore(until));
        return stageMatches && reasonMatches && timeMatches;
    }

    /**
     * The original record again: its key, value and headers without {@code etl.dlq.*} and {@code etl.retry.*}, plus
     * the redrive headers.
     */
    private static ProducerRecord<byte[], byte[]> redriven(ConsumerRecord<byte[], byte[]> record, Letter letter) {
        RecordHeaders headers = new RecordHeaders();
        int count = 1;
        for (Header h : record.headers()) {
            if (h.key().startsWith(DeadLetter.HEADER_PREFIX)
                    || h.key().startsWith(RetryLetter.HEADER_PREFIX)
                    || h.key().equals(REDRIVEN_FROM_HEADER)) {
                continue;
            }
            if (h.key().equals(REDRIVE_COUNT_HEADER)) {
                count = parseCount(h.value()) + 1;
                continue;
            }
            headers.add(h);
        }
        headers.add(REDRIVEN_FROM_HEADER, letter.position().getBytes(StandardCharsets.UTF_8));
        headers.add(REDRIVE_COUNT_HEADER, Integer.toString(count).getBytes(StandardCharsets.UTF_8));
        return new ProducerRecord<>(letter.target(), null, null, record.key(), record.value(), headers);
    }

    private void requireTopic(Admin admin, String topic, long deadline) {
        try {
            admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw new IllegalArgumentException("target topic '" + topic + "' does not exist", e.getCause());
            }
            throw new IllegalStateException("cannot describe target topic '" + topic + "': " + e.getCause(), e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("cannot describe target topic '" + topic + "' within the timeout", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static int parseCount(byte[] value) {
        try {
            return Integer.parseInt(new String(value, StandardCharsets.UTF_8).trim());
        } catch (RuntimeException e) {
            return 0;
        }
    }

    /** {@code orders-eu} of {@code orders-eu-3@42}: a topic name may hold dashes, the partition cannot. */
    static String topicOf(String position) {
        int at = position.lastIndexOf('@');
        int dash = at < 0 ? -1 : position.lastIndexOf('-', at);
        return dash <= 0 ? null : position.substring(0, dash);
    }

    private static String text(Headers headers, String key) {
        Header h = headers.lastHeader(key);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private Map<String, Object> consumerProperties() {
        Map<String, Object> p = new HashMap<>(clientProperties);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        // asking for a missing dead-letter topic must not create it
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        p.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "etl-redrive-" + deadLetterTopic);
        return p;
    }

    private Map<String, Object> producerProperties() {
        Map<String, Object> p = new HashMap<>(clientProperties);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        p.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "etl-redrive-" + deadLetterTopic);
        return p;
    }

    private Map<String, Object> adminProperties() {
        Map<String, Object> p = new HashMap<>(clientProperties);
        p.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "etl-redrive-" + deadLetterTopic);
        return p;
    }

    @Override
    public String toString() {
        return "DeadLetterRedrive[" + deadLetterTopic + " -> " + (target == null ? "source topics" : target)
                + (stagePatterns.isEmpty() ? "" : ", stages " + stagePatterns)
                + (reasons.isEmpty() ? "" : ", reasons " + reasons)
                + (since == null ? "" : ", since " + since)
                + (until == null ? "" : ", until " + until) + "]";
    }
}
