package io.etl.kafka.common.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.testkit.BrokerOptions;
import io.etl.testkit.BrokerSecurity;
import io.etl.testkit.ClusterSecurity;
import io.etl.testkit.KafkaTestCluster;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** The readiness inspection against a SASL_SSL/SCRAM broker with the ACL authorizer on. */
class ClusterInspectionIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final String READER = "reader";
    private static final String READER_PASSWORD = "reader-Pa55";

    @AutoClose
    private static final KafkaTestCluster kafka = KafkaTestCluster.embedded(BrokerOptions.builder()
            .brokerProperty("auto.create.topics.enable", "false")
            .security(BrokerSecurity.scramWithAcls(Map.of(READER, READER_PASSWORD)))
            .build());

    private static final ClusterSecurity security = kafka.security().orElseThrow();
    private static final Map<String, String> admin = security.clientProperties(BrokerSecurity.DEFAULT_SUPER_USER);

    /** A SCRAM user made for one test, and the client properties it logs in with. */
    private record Principal(String user, Map<String, String> clientProperties) {}

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A new user (named {@code prefix-<random>}, password {@code prefix-Pa55}) allowed {@code operations} on {@code topic}. */
    private static Principal newUserAllowed(String prefix, String topic, AclOperation... operations) {
        String user = unique(prefix);
        String password = prefix + "-Pa55";
        security.createUser(user, password);
        security.allowTopic(user, topic, operations);
        return new Principal(user, security.clientProperties(user, password));
    }

    @Test
    void missingTopicIsNamedUntilItExists() {
        String input = unique("orders");
        String output = unique("orders-eu");
        kafka.createTopic(input, 3);
        List<ClusterUse> uses = List.of(
                ClusterUse.read("source.orders.kafka", admin, input, unique("group")),
                ClusterUse.write("sinks.eu.kafka", admin, output, 1_000_000));

        ReadinessReport missing = ClusterInspection.inspect(uses, TIMEOUT);

        assertThat(missing.ready()).isFalse();
        assertThat(missing.problems()).singleElement().satisfies(p -> {
            assertThat(p.path()).isEqualTo("sinks.eu.kafka.topic");
            assertThat(p.message()).contains("topic '" + output + "' does not exist");
        });
        assertThat(missing.notes())
                .extracting(Finding::toString)
                .contains("source.orders.kafka.topics: topic '" + input + "' has 3 partition(s)")
                .anyMatch(
                        l -> l.startsWith("source.orders.kafka.group_id: group '") && l.contains("does not exist yet"));

        kafka.createTopic(output, 2);
        ReadinessReport ready = ClusterInspection.inspect(uses, TIMEOUT);

        assertThat(ready.problems()).isEmpty();
        assertThat(ready.ready()).isTrue();
        assertThat(ready.notes())
                .extracting(Finding::toString)
                .contains("sinks.eu.kafka.topic: topic '" + output + "' has 2 partition(s)");
    }

    @Test
    void topicTheSinkCreatesAtStartIsOnlyNoted() {
        String output = unique("created");
        ReadinessReport report = ClusterInspection.inspect(
                List.of(ClusterUse.write("sinks.eu.kafka", admin, output, 1_000_000)
                        .createdAtStart(true)),
                TIMEOUT);

        assertThat(report.ready()).isTrue();
        assertThat(report.notes())
                .extracting(Finding::message)
                .anyMatch(m -> m.contains(output) && m.contains("created") && !m.contains("CREATE"));

        Principal creator = newUserAllowed("creator", output, AclOperation.DESCRIBE);
        ReadinessReport withoutCreate = ClusterInspection.inspect(
                List.of(ClusterUse.write("sinks.eu.kafka", creator.clientProperties(), output, 1_000_000)
                        .createdAtStart(true)),
                TIMEOUT);

        assertThat(withoutCreate.notes())
                .extracting(Finding::toString)
                .anyMatch(l -> l.startsWith("sinks.eu.kafka.topic:")
                        && l.contains("needs CREATE")
                        && l.contains("User:" + creator.user()));
        assertThat(withoutCreate.problems())
                .as("WRITE on a topic yet to be created cannot be seen")
                .isEmpty();
    }

    @Test
    void principalWithoutWriteOnTheSinkTopicIsNamedWithTheOperation() {
        String topic = unique("secured");
        kafka.createTopic(topic, 1);
        Principal nowrite = newUserAllowed("nowrite", topic, AclOperation.DESCRIBE);

        ReadinessReport report = ClusterInspection.inspect(
                List.of(ClusterUse.write("sinks.eu.kafka", nowrite.clientProperties(), topic, 1_000_000)), TIMEOUT);

        assertThat(report.ready()).isFalse();
        assertThat(report.problems())
                .extracting(Finding::toString)
                .anyMatch(l -> l.startsWith("sinks.eu.kafka.topic: principal User:" + nowrite.user()
                        + " is not authorized to WRITE topic '" + topic + "'"))
                .anyMatch(l -> l.startsWith("sinks.eu.kafka: ") && l.contains("IDEMPOTENT_WRITE"));
    }

    @Test
    void writeOnTheTopicIsEnoughForTheIdempotentProducer() {
        String topic = unique("writable");
        kafka.createTopic(topic, 1);
        Principal writer = newUserAllowed("writer", topic, AclOperation.WRITE, AclOperation.DESCRIBE);

        ReadinessReport report = ClusterInspection.inspect(
                List.of(ClusterUse.write("sinks.eu.kafka", writer.clientProperties(), topic, 1_000_000)), TIMEOUT);

        assertThat(report.problems()).isEmpty();
    }

    @Test
    void sourceWithoutReadOnTopicOrGroupIsNamed() throws Exception {
        String topic = unique("in");
        String group = unique("group");
        kafka.createTopic(topic, 1);
        security.allowTopic(READER, topic, AclOperation.DESCRIBE);
        Map<String, String> props = security.clientProperties(READER, READER_PASSWORD);
        List<ClusterUse> uses = List.of(ClusterUse.read("source.orders.kafka", props, topic, group));

        ReadinessReport denied = ClusterInspection.inspect(uses, TIMEOUT);

        assertThat(denied.problems())
                .extracting(Finding::toString)
                .anyMatch(
                        l -> l.startsWith("source.orders.kafka.topics: principal User:reader is not authorized to READ"
                                + " topic '" + topic + "'"))
                .anyMatch(l -> l.startsWith("source.orders.kafka.group_id: principal User:reader is not authorized to"
                        + " READ group '" + group + "'"));

        // the group exists and the principal may see it, but not read it
        try (Admin superUser = Admin.create(new HashMap<String, Object>(admin))) {
            superUser
                    .alterConsumerGroupOffsets(group, Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(0)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
        security.allow(READER, AclOperation.DESCRIBE, ResourceType.GROUP, group);
        assertThat(ClusterInspection.inspect(uses, TIMEOUT).problems())
                .extracting(Finding::toString)
                .anyMatch(l -> l.startsWith("source.orders.kafka.group_id: principal User:reader is not authorized to"
                                + " READ group '" + group + "'")
                        && l.endsWith("(authorized: DESCRIBE)"));

        security.allowTopic(READER, topic, AclOperation.READ);
        security.allowGroup(READER, group);
        assertThat(ClusterInspection.inspect(uses, TIMEOUT).problems()).isEmpty();
    }

    @Test
    void topicWithSmallerMaxMessageBytesThanTheGuardIsNamed() {
        String topic = unique("small");
        kafka.createTopic(topic, 1, -1, Map.of("max.message.bytes", "10000"));

        ReadinessReport report = ClusterInspection.inspect(
                List.of(ClusterUse.write("sinks.eu.kafka", admin, topic, 1_000_000)), TIMEOUT);

        assertThat(report.problems()).singleElement().satisfies(p -> {
            assertThat(p.path()).isEqualTo("sinks.eu.kafka.max_message_bytes");
            assertThat(p.message()).contains("topic '" + topic + "'", "max.message.bytes is 10000", "set on the topic");
        });
        assertThat(ClusterInspection.inspect(List.of(ClusterUse.write("sinks.eu.kafka", admin, topic, 10_000)), TIMEOUT)
                        .problems())
                .isEmpty();
    }

    @Test
    void wrongPasswordIsAnAuthenticationProblemOnceForTheCluster() {
        String topic = unique("any");
        kafka.createTopic(topic, 1);
        Map<String, String> wrong = security.clientProperties(READER, "not-the-password");
        List<ClusterUse> uses = List.of(
                ClusterUse.read("source.orders.kafka", wrong, topic, "g"),
                ClusterUse.write("sinks.eu.kafka", wrong, topic, 1000));

        ReadinessReport report = ClusterInspection.inspect(uses, TIMEOUT);

        assertThat(report.problems()).singleElement().satisfies(p -> {
            assertThat(p.path()).isEqualTo("source.orders.kafka.security");
            assertThat(p.message())
                    .contains("authentication to brokers", "as User:reader", "sinks.eu.kafka")
                    .doesNotContain("not-the-password");
        });
    }

    @Test
    void plaintextClientAgainstTheTlsListenerIsUnreachableWithinTheBound() {
        Map<String, String> plaintext = Map.of("bootstrap.servers", kafka.bootstrapServers());
        long started = System.nanoTime();

        ReadinessReport report = ClusterInspection.inspect(
                List.of(ClusterUse.write("sinks.eu.kafka", plaintext, "t", 1000)), Duration.ofSeconds(3));

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        assertThat(report.problems()).singleElement().satisfies(p -> {
            assertThat(p.path()).isEqualTo("sinks.eu.kafka.brokers");
            assertThat(p.message()).contains("could not reach brokers", "security.protocol (PLAINTEXT)");
        });
    }

    @Test
    void clustersAreInspectedInParallel() {
        String topic = unique("both");
        kafka.createTopic(topic, 1);
        Map<String, String> dead = Map.of("bootstrap.servers", "127.0.0.1:1");
        long started = System.nanoTime();

        ReadinessReport report = ClusterInspection.inspect(
                List.of(
                        ClusterUse.write("sinks.a.kafka", dead, topic, 1000),
                        ClusterUse.write("sinks.b.kafka", Map.of("bootstrap.servers", "127.0.0.1:2"), topic, 1000),
                        ClusterUse.write("sinks.c.kafka", admin, topic, 1000)),
                Duration.ofSeconds(3));

        // two unreachable clusters of 3 s each, side by side, plus one that answers
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(6));
        assertThat(report.problems())
                .extracting(Finding::path)
                .containsExactly("sinks.a.kafka.brokers", "sinks.b.kafka.brokers");
        assertThat(report.notes()).extracting(Finding::path).contains("sinks.c.kafka.topic");
    }
}
