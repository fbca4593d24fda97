package io.etl.kafka.common.internal;

import io.etl.core.config.Durations;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Is a Kafka cluster ready for a pipeline? Given the pipeline's {@link ClusterUse}s, it reports within a bound,
 * one {@link Finding} a line, each starting with the key path:
 * <ul>
 *   <li>brokers that cannot be reached, or refuse the credentials or the TLS handshake;</li>
 *   <li>a topic that does not exist, and (as a note) the partition count of one that does;</li>
 *   <li>operations the principal is not authorized for: READ on a source topic and its group, WRITE on a sink
 *       topic, IDEMPOTENT_WRITE on the cluster (which WRITE on any topic implies), from the authorized
 *       operations the brokers return (a broker without an authorizer returns every operation);</li>
 *   <li>a sink topic whose effective {@code max.message.bytes} (its own, or the broker default) is smaller than
 *       the sink's message size guard.</li>
 * </ul>
 * Uses with the same bootstrap servers and security settings share one admin client; clusters are inspected in
 * parallel. Nothing is created or changed.
 *
 * <pre>{@code
 * ReadinessReport report = ClusterInspection.inspect(uses, Duration.ofSeconds(30));
 * report.problems().forEach(System.out::println);
 * }</pre>
 */
public final class ClusterInspection {

    private ClusterInspection() {}

    /**
     * Inspects every cluster the uses reach.
     *
     * @param timeout bounds the whole inspection; a cluster that has not answered by then is reported unreachable
     */
    public static ReadinessReport inspect(List<ClusterUse> uses, Duration timeout) {
        Map<Map<String, String>, List<ClusterUse>> clusters = new LinkedHashMap<>();
        for (ClusterUse use : uses) {
            clusters.computeIfAbsent(identity(use), k -> new ArrayList<>()).add(use);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        ExecutorService executor = Executors.newFixedThreadPool(Math.max(1, Math.min(8, clusters.size())), r -> {
            Thread t = new Thread(r, "etl-cluster-inspection");
            t.setDaemon(true);
            return t;
        });
        try {
            List<CompletableFuture<List<Finding>>> inspections = new ArrayList<>();
            for (List<ClusterUse> cluster : clusters.values()) {
                inspections.add(CompletableFuture.supplyAsync(
                        () -> new OneCluster(cluster, timeout, deadline).inspect(), executor));
            }
            List<Finding> findings = new ArrayList<>();
            int i = 0;
            for (List<ClusterUse> cluster : clusters.values()) {
                findings.addAll(await(inspections.get(i++), cluster, timeout, deadline));
            }
            return new ReadinessReport(findings);
        } finally {
            executor.shutdownNow();
        }
    }

    private static List<Finding> await(
            CompletableFuture<List<Finding>> inspection, List<ClusterUse> cluster, Duration timeout, long deadline) {
        ClusterUse first = cluster.get(0);
        ConnectionFailures failures =
                ConnectionFailures.of(first.clientProperties(), first.path(), first.principal(), timeout);
        try {
            // the cluster's own calls are bounded by the deadline; the margin lets it report what it found
            long left = Math.max(0, deadline - System.nanoTime()) + TimeUnit.SECONDS.toNanos(2);
            return inspection.get(left, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return OneCluster.connectionProblems(failures.unreachable(e), cluster);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OneCluster.connectionProblems(failures.interrupted(e), cluster);
        } catch (ExecutionException e) {
            return List.of(Finding.problem(
                    first.path(),
                    "inspecting brokers " + failures.brokers() + " failed: " + KafkaErrors.describe(e.getCause())));
        }
    }

    /** What decides which cluster is reached and as whom. */
    private static Map<String, String> identity(ClusterUse use) {
        return AdminSettings.clusterIdentity(adminProperties(use, Duration.ofSeconds(1)));
    }

    private static Properties adminProperties(ClusterUse use, Duration timeout) {
        return AdminSettings.properties(use.clientProperties(), timeout, "etl-check");
    }

    /** The inspection of one cluster, with one admin client, on one thread. */
    private static final class OneCluster {

        private final List<ClusterUse> uses;
        private final ClusterUse first;
        private final Duration timeout;
        private final long deadline;
        private final ConnectionFailures failures;
        private final List<Finding> findings = new ArrayList<>();

        OneCluster(List<ClusterUse> uses, Duration timeout, long deadline) {
            this.uses = uses;
            this.first = uses.get(0);
            this.timeout = timeout;
            this.deadline = deadline;
            this.failures = ConnectionFailures.of(first.clientProperties(), first.path(), first.principal(), timeout);
        }

        List<Finding> inspect() {
            try {
                // as a start does: the hosts resolve and a broker listens, worded as the start words it
                failures.awaitListener(first.refusedTimeout());
            } catch (ConfigException e) {
                return connectionProblems(e, uses);
            }
            try (Admin admin = Admin.create(adminProperties(first, timeout))) {
                Set<AclOperation> clusterOperations;
                try {
                    DescribeClusterResult cluster = admin.describeCluster(new DescribeClusterOptions()
                            .includeAuthorizedOperations(true)
                            .timeoutMs(leftMs()));
                    Collection<Node> nodes = get(cluster.nodes());
                    clusterOperations = get(cluster.authorizedOperations());
                    findings.add(Finding.note(
                            first.path() + ".brokers",
                            "reached " + nodes.size() + " broker(s) at " + failures.brokers() + alsoUsedBy()));
                } catch (ExecutionException e) {
                    return connectionProblems(failures.translate(cause(e), null), uses);
                } catch (TimeoutException e) {
                    return connectionProblems(failures.unreachable(e), uses);
                }
                Map<String, TopicDescription> topics = describeTopics(admin, clusterOperations);
                checkGroups(admin);
                checkIdempotentWrite(clusterOperations, topics);
                checkMessageSizes(admin, topics);
                return findings;
            } catch (KafkaException e) {
                return connectionProblems(failures.clientRefused(e), uses);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                findings.addAll(connectionProblems(failures.interrupted(e), uses));
                return findings;
            }
        }

        /** Describes every topic once; a finding for each use of a missing, hidden or unauthorized one. */
        private Map<String, TopicDescription> describeTopics(Admin admin, Set<AclOperation> clusterOperations)
                throws InterruptedException {
            Set<String> names = new LinkedHashSet<>();
            uses.stream().filter(u -> u.topic() != null).forEach(u -> names.add(u.topic()));
            Map<String, TopicProbe.Topic> described =
                    TopicProbe.of(admin, deadline).describe(names, true);
            Map<String, TopicDescription> found = new LinkedHashMap<>();
            Map<String, Throwable> failed = new LinkedHashMap<>();
            described.forEach((name, topic) -> {
                if (topic.exists()) {
                    found.put(name, topic.description());
                } else {
                    failed.put(name, topic.failure());
                }
            });
            for (ClusterUse use : uses) {
                String key = topicKey(use);
                if (use.topic() == null) {
                    findings.add(Finding.note(key, "subscribes by pattern: matching topics are not checked"));
                    continue;
                }
                TopicDescription topic = found.get(use.topic());
                Throwable error = failed.get(use.topic());
                if (topic != null) {
                    findings.add(Finding.note(
                            key,
                            "topic '" + use.topic() + "' has "
                                    + topic.partitions().size() + " partition(s)"));
                    AclOperation needed = use.role() == ClusterUse.Role.READ ? AclOperation.READ : AclOperation.WRITE;
                    if (!allows(topic.authorizedOperations(), needed)) {
                        findings.add(Finding.problem(
                                key,
                                use.who() + " is not authorized to " + needed + " topic '" + use.topic()
                                        + "' on brokers " + failures.brokers()
                                        + granted(topic.authorizedOperations())));
                    }
                } else if (error instanceof UnknownTopicOrPartitionException && use.createdAtStart()) {
                    findings.add(
                            Finding.note(
                                    key,
                                    "topic '" + use.topic() + "' does not exist yet; it is created at"
                                            + " start-up"
                                            + (allows(clusterOperations, AclOperation.CREATE)
                                                    ? ""
                                                    : ", which needs CREATE on it (" + use.who()
                                                            + " has no CREATE on the cluster; CREATE"
                                                            + " granted on the topic name cannot be seen before the topic exists)")));
                } else if (error instanceof UnknownTopicOrPartitionException && use.role() == ClusterUse.Role.READ) {
                    findings.add(Finding.problem(
                            key, "topic '" + use.topic() + "' does not exist on brokers " + failures.brokers()));
                } else if (error instanceof TimeoutException
                        // CHECKSTYLE.OFF: InlineFullyQualifiedName - Kafka's TimeoutException too
                        || error instanceof org.apache.kafka.common.errors.TimeoutException) {
                    // CHECKSTYLE.ON: InlineFullyQualifiedName
                    findings.add(Finding.problem(
                            key,
                            "could not describe topic '" + use.topic() + "' on brokers " + failures.brokers()
                                    + " within " + Durations.format(timeout)));
                } else if (error != null) {
                    ConnectionFailures own = new ConnectionFailures(
                            use.path(), failures.brokers(), failures.protocol(), use.principal(), timeout, null);
                    for (ConfigProblem p : own.translate(error, use.topic()).problems()) {
                        findings.add(Finding.problem(key, p.message()));
                    }
                }
            }
            return found;
        }

        /** READ on each source's group; a group that does not exist yet cannot be asked and is only noted. */
        private void checkGroups(Admin admin) throws InterruptedException {
            Map<String, List<ClusterUse>> groups = new LinkedHashMap<>();
            uses.stream()
                    .filter(u -> u.role() == ClusterUse.Role.READ && u.groupId() != null)
                    .forEach(u -> groups.computeIfAbsent(u.groupId(), g -> new ArrayList<>())
                            .add(u));
            if (groups.isEmpty()) {
                return;
            }
            Map<String, KafkaFuture<ConsumerGroupDescription>> futures = admin.describeConsumerGroups(
                            groups.keySet(),
                            new DescribeConsumerGroupsOptions()
                                    .includeAuthorizedOperations(true)
                                    .timeoutMs(leftMs()))
                    .describedGroups();
            for (Map.Entry<String, List<ClusterUse>> e : groups.entrySet()) {
                String group = e.getKey();
                for (ClusterUse use : dedupByPath(e.getValue())) {
                    String key = use.path() + ".group_id";
                    try {
                        ConsumerGroupDescription description = get(futures.get(group));
                        if (!allows(description.authorizedOperations(), AclOperation.READ)) {
                            findings.add(Finding.problem(
                                    key,
                                    use.who() + " is not authorized to READ group '" + group + "' on brokers "
                                            + failures.brokers() + granted(description.authorizedOperations())));
                        }
                    } catch (ExecutionException x) {
                        Throwable cause = cause(x);
                        if (cause instanceof AuthorizationException) {
                            findings.add(Finding.problem(
                                    key,
                                    use.who() + " is not authorized to READ group '" + group + "' on brokers "
                                            + failures.brokers() + ": " + cause.getMessage()));
                        } else if (cause instanceof GroupIdNotFoundException) {
                            findings.add(Finding.note(
                                    key,
                                    "group '" + group + "' does not exist yet; READ on it is"
                                            + " checked by the brokers when the source joins"));
                        } else {
                            findings.add(Finding.problem(
                                    key,
                                    "describing group '" + group + "' on brokers " + failures.brokers() + " failed: "
                                            + KafkaErrors.describe(cause)));
                        }
                    } catch (TimeoutException x) {
                        findings.add(Finding.problem(
                                key,
                                "could not describe group '" + group + "' on brokers " + failures.brokers() + " within "
                                        + Durations.format(timeout)));
                    }
                }
            }
        }

        /**
         * An idempotent producer needs IDEMPOTENT_WRITE on the cluster or WRITE on some topic (the brokers accept
         * either): a problem only when a writing principal has neither.
         */
        private void checkIdempotentWrite(Set<AclOperation> clusterOperations, Map<String, TopicDescription> topics) {
            if (allows(clusterOperations, AclOperation.IDEMPOTENT_WRITE)) {
                return;
            }
            List<ClusterUse> writers =
                    uses.stream().filter(u -> u.role() == ClusterUse.Role.WRITE).toList();
            boolean writesSomewhere = writers.stream()
                    .map(u -> topics.get(u.topic()))
                    .anyMatch(t -> t != null && allows(t.authorizedOperations(), AclOperation.WRITE));
            // WRITE on a topic that is not there (yet) cannot be seen: it may be what allows idempotence
            boolean unknown = writers.stream().anyMatch(u -> !topics.containsKey(u.topic()));
            if (writers.isEmpty() || writesSomewhere || unknown) {
                return;
            }
            for (ClusterUse use : dedupByPath(writers)) {
                findings.add(Finding.problem(
                        use.path(),
                        use.who() + " is not authorized to IDEMPOTENT_WRITE on the"
                                + " cluster at " + failures.brokers() + " (nor to WRITE any of its topics), which the"
                                + " idempotent producer needs" + granted(clusterOperations)));
            }
        }

        /** The effective {@code max.message.bytes} of each written topic against the sink's guard. */
        private void checkMessageSizes(Admin admin, Map<String, TopicDescription> topics) throws InterruptedException {
            List<ClusterUse> writers = uses.stream()
                    .filter(u -> u.role() == ClusterUse.Role.WRITE
                            && u.maxMessageBytes() > 0
                            && topics.containsKey(u.topic()))
                    .toList();
            Map<String, TopicProbe.MessageLimit> limits = TopicProbe.of(admin, deadline)
                    .maxMessageBytes(writers.stream().map(ClusterUse::topic).toList());
            for (ClusterUse use : writers) {
                String key = use.path() + ".max_message_bytes";
                TopicProbe.MessageLimit limit = limits.get(use.topic());
                if (limit.timedOut()) {
                    findings.add(Finding.problem(
                            key,
                            "could not describe the configuration of topic '" + use.topic() + "' on brokers "
                                    + failures.brokers() + " within " + Durations.format(timeout)));
                } else if (limit.failure() != null) {
                    findings.add(Finding.note(
                            key,
                            "cannot verify max.message.bytes of topic '" + use.topic() + "': "
                                    + (limit.failure() instanceof AuthorizationException
                                            ? use.who() + " may not DESCRIBE_CONFIGS it"
                                            : KafkaErrors.describe(limit.failure()))));
                } else if (limit.bytes().isEmpty()) {
                    findings.add(Finding.note(
                            key, "the brokers did not tell max.message.bytes of topic '" + use.topic() + "'"));
                } else if (limit.bytes().getAsLong() < use.maxMessageBytes()) {
                    long bytes = limit.bytes().getAsLong();
                    findings.add(Finding.problem(
                            key,
                            use.maxMessageBytes() + " bytes is more than topic '"
                                    + use.topic() + "' accepts: max.message.bytes is " + bytes + " ("
                                    + origin(limit.source())
                                    + "); lower max_message_bytes to at most " + bytes + ", or raise the topic's"
                                    + " max.message.bytes"));
                }
            }
        }

        private static String origin(ConfigEntry.ConfigSource source) {
            return switch (source) {
                case DYNAMIC_TOPIC_CONFIG -> "set on the topic";
                case DYNAMIC_BROKER_CONFIG, DYNAMIC_DEFAULT_BROKER_CONFIG, STATIC_BROKER_CONFIG ->
                    "the broker's message.max.bytes";
                case DEFAULT_CONFIG -> "the broker default";
                default -> String.valueOf(source).toLowerCase(Locale.ROOT);
            };
        }

        private static String topicKey(ClusterUse use) {
            if (use.role() == ClusterUse.Role.WRITE) {
                return use.path() + ".topic";
            }
            return use.path() + (use.topic() == null ? ".topic_pattern" : ".topics");
        }

        /** A connection problem, once for the cluster, naming the other sections that use the same settings. */
        static List<Finding> connectionProblems(ConfigException e, List<ClusterUse> uses) {
            List<Finding> out = new ArrayList<>();
            String also = alsoUsedBy(uses);
            for (ConfigProblem p : e.problems()) {
                out.add(Finding.problem(p.path(), p.message() + also));
            }
            return out;
        }

        private String alsoUsedBy() {
            return alsoUsedBy(uses);
        }

        private static String alsoUsedBy(List<ClusterUse> uses) {
            List<String> others =
                    uses.stream().map(ClusterUse::path).distinct().skip(1).toList();
            return others.isEmpty() ? "" : " (the same brokers and security as " + String.join(", ", others) + ")";
        }

        private static List<ClusterUse> dedupByPath(List<ClusterUse> uses) {
            Map<String, ClusterUse> byPath = new LinkedHashMap<>();
            uses.forEach(u -> byPath.putIfAbsent(u.path(), u));
            return List.copyOf(byPath.values());
        }

        /** Null means the brokers did not say (an old broker): assume allowed rather than report a false problem. */
        private static boolean allows(Set<AclOperation> granted, AclOperation op) {
            return granted == null || granted.contains(op) || granted.contains(AclOperation.ALL);
        }

        private static String granted(Set<AclOperation> granted) {
            return granted == null
                    ? ""
                    : " (authorized: "
                            + (granted.isEmpty()
                                    ? "nothing"
                                    : String.join(
                                            ", ",
                                            granted.stream()
                                                    .map(Enum::name)
                                                    .sorted()
                                                    .toList()))
                            + ")";
        }

        private <V> V get(KafkaFuture<V> future) throws ExecutionException, TimeoutException, InterruptedException {
            return future.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }

        private int leftMs() {
            return AdminSettings.millisUntil(deadline);
        }

        private static Throwable cause(ExecutionException e) {
            return e.getCause() == null ? e : e.getCause();
        }
    }
}
