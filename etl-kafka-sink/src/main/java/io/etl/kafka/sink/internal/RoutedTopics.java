package io.etl.kafka.sink.internal;

import io.etl.core.config.Durations;
import io.etl.core.error.ConfigException;
import io.etl.core.error.RecordException;
import io.etl.core.metrics.EtlMetrics;
import io.etl.kafka.common.internal.AdminSettings;
import io.etl.kafka.common.internal.KafkaErrors;
import io.etl.kafka.common.internal.TopicCreator;
import io.etl.kafka.common.internal.TopicProbe;
import io.etl.kafka.sink.RouteConfig;
import io.etl.kafka.sink.TopicCreation;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topics one route has open: a topic is checked on its first use (allowed by the route's list or pattern, within
 * {@code max_topics}, existing or created as {@code route.create} says) and its {@code max.message.bytes} read, all on
 * the pipeline thread with one admin client kept for the route; later values for the topic find it in a map. What
 * fails is a {@link RecordException} ({@link RecordException#ROUTE}) for the value at hand, under the sink's
 * {@code on_error} policy. A topic found missing is not asked about again for {@link #MISSING_RECHECK}, so a stream
 * of values for it does not become a stream of admin requests.
 */
final class RoutedTopics {

    private static final Logger LOG = LoggerFactory.getLogger(RoutedTopics.class);

    /** How long a topic found missing (and not to be created) is taken as missing before the brokers are asked again. */
    static final Duration MISSING_RECHECK = Duration.ofSeconds(10);

    private final String route;
    private final String path;
    private final RouteConfig config;
    private final Set<String> listed;
    private final Pattern pattern;
    private final Duration timeout;
    private final LongSupplier clock;
    private final Map<String, Topic> open = new ConcurrentHashMap<>();
    private final Map<String, Long> missingUntil = new ConcurrentHashMap<>();

    private Map<String, Object> connection;
    private MeterRegistry registry;
    private Tags tags;
    private Admin admin;

    /**
     * @param route   the route's name
     * @param path    the template section's path, e.g. {@code sinks.tenants.kafka}
     * @param timeout bound of the admin calls made for one topic ({@code startup_timeout})
     */
    RoutedTopics(String route, String path, RouteConfig config, Duration timeout, LongSupplier clock) {
        this.route = route;
        this.path = path;
        this.config = config;
        this.listed = Set.copyOf(config.topics());
        this.pattern = config.topicPattern() == null ? null : Pattern.compile(config.topicPattern());
        this.timeout = timeout;
        this.clock = clock;
    }

    /** One open topic: its size limit and its meter. */
    record Topic(String name, long maxMessageBytes, Counter written) {}

    /** Connects the route: the cluster to ask about topics, where its meters go. Before the first value. */
    void open(Map<String, Object> connection, MeterRegistry registry, Tags tags) {
        this.connection = connection;
        this.registry = registry;
        this.tags = tags;
        Gauge.builder(EtlMetrics.ROUTE_TOPICS, open, Map::size).tags(tags).register(registry);
    }

    /** Whether the route may write {@code topic} at all. */
    boolean allowed(String topic) {
        return pattern != null ? pattern.matcher(topic).matches() : listed.contains(topic);
    }

    /**
     * The open topic {@code topic}, opening it on its first use. Pipeline thread.
     *
     * @throws RecordException when the route may not or cannot write it
     */
    Topic topic(String topic) {
        Topic known = open.get(topic);
        return known != null ? known : first(topic);
    }

    /** The open topic, if the route has it open; any thread. */
    Topic find(String topic) {
        return open.get(topic);
    }

    /** Topics open now. */
    int size() {
        return open.size();
    }

    private Topic first(String topic) {
        if (!allowed(topic)) {
            throw refused("topic '" + topic + "' is not allowed by " + path + ".route ("
                    + (pattern != null ? "topic_pattern /" + pattern.pattern() + "/" : "topics " + config.topics())
                    + ")");
        }
        if (open.size() >= config.maxTopics()) {
            throw refused("route '" + route + "' already has " + open.size() + " topics open, its max_topics; topic '"
                    + topic + "' would be one more");
        }
        Long until = missingUntil.get(topic);
        if (until != null && clock.getAsLong() - until < 0) {
            throw missing(topic);
        }
        long deadline = clock.getAsLong() + timeout.toNanos();
        try {
            TopicProbe probe = TopicProbe.of(admin(), deadline);
            TopicProbe.Topic described = probe.describe(topic);
            if (described.missing()) {
                if (config.create() == null) {
                    missingUntil.put(topic, clock.getAsLong() + MISSING_RECHECK.toNanos());
                    throw missing(topic);
                }
                create(topic, config.create(), deadline);
            } else if (!described.exists()) {
                throw refused("could not describe topic '" + topic + "'"
                        + (described.timedOut()
                                ? " within startup_timeout " + Durations.format(timeout)
                                : ": " + KafkaErrors.rootMessage(described.failure())));
            }
            missingUntil.remove(topic);
            Topic opened = new Topic(topic, limit(probe, topic), counter(topic));
            open.put(topic, opened);
            LOG.info("route '{}': writing topic '{}' ({} open)", route, topic, open.size());
            return opened;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw refused("interrupted while opening topic '" + topic + "'");
        } catch (KafkaException e) {
            throw refused("could not open topic '" + topic + "': " + KafkaErrors.rootMessage(e));
        }
    }

    private void create(String topic, TopicCreation creation, long deadline) {
        try {
            TopicCreator.create(
                    admin(),
                    List.of(TopicSpecs.newTopic(creation.forTopic(topic))),
                    List.of(path + ".route.create"),
                    deadline,
                    path + ".route.create",
                    timeout);
        } catch (ConfigException e) {
            throw refused(e.getMessage());
        }
    }

    /** The topic's {@code max.message.bytes}; without it (no permission to read it) the sink's own guard alone. */
    private static long limit(TopicProbe probe, String topic) throws InterruptedException {
        OptionalLong bytes = probe.maxMessageBytes(topic).bytes();
        return bytes.isPresent() ? bytes.getAsLong() : Long.MAX_VALUE;
    }

    private Counter counter(String topic) {
        return Counter.builder(EtlMetrics.ROUTE_RECORDS)
                .tags(tags.and(EtlMetrics.TAG_TOPIC, topic))
                .register(registry);
    }

    private Admin admin() {
        if (admin == null) {
            admin = Admin.create(AdminSettings.properties(connection, timeout, "etl-route-" + path));
        }
        return admin;
    }

    private RecordException missing(String topic) {
        return refused("topic '" + topic + "' does not exist, and " + path
                + ".route has no create settings to create it on first use");
    }

    private RecordException refused(String detail) {
        return RecordException.of(RecordException.ROUTE, detail, null);
    }

    /** Closes the admin client; called when the route's writer closes. */
    void close(Duration wait) {
        Admin a = admin;
        admin = null;
        if (a != null) {
            a.close(Duration.ofMillis(Math.max(0, Math.min(wait.toMillis(), TimeUnit.SECONDS.toMillis(5)))));
        }
    }
}
