package io.etl.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * One forked broker+controller JVM, shared by the tests of this class, which run in order. It starts with JVM
 * flags of its own ({@link BrokerOptions#jvmOptions()}): a smaller heap than the kit's.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ForkedSingleNodeIT {

    private static final int NODE = ForkedKafkaCluster.SINGLE_NODE_ID;

    private static final List<String> FLAGS = List.of("-Xmx320m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    @AutoClose
    private static final ForkedKafkaCluster kafka = KafkaTestCluster.forkedSingle(
            BrokerOptions.builder().jvmOptions(FLAGS).build());

    @Test
    @Order(0)
    void startsTheBrokerJvmWithTheFlagsItWasGivenInPlaceOfTheKits() throws Exception {
        // the whole command line: ProcessHandle.Info leaves out the arguments of one as long as the broker's
        Path cmdline = Path.of("/proc", Long.toString(kafka.pid(NODE)), "cmdline");
        assumeTrue(Files.isReadable(cmdline), "reads the command line from /proc (Linux)");
        List<String> arguments = List.of(new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8).split("\0"));

        assertThat(arguments).containsSubsequence(FLAGS).doesNotContain("-Xmx384m");
    }

    @Test
    @Order(1)
    void keepsEveryAcknowledgedRecordWhenKilledWithSigkillAndRestarted() throws Exception {
        kafka.createTopic("durable", 2);
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        AtomicLong failed = new AtomicLong();
        AtomicBoolean running = new AtomicBoolean(true);
        Map<String, Object> config = new HashMap<>(kafka.clientProperties());
        config.put("acks", "all");
        config.put("enable.idempotence", "true");
        config.put("linger.ms", "2");
        config.put("delivery.timeout.ms", "60000");
        config.put("request.timeout.ms", "5000");
        config.put("max.block.ms", "60000");
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
            Future<?> sending = executor.submit(() -> {
                for (long i = 0; running.get(); i++) {
                    String value = "record-" + i;
                    producer.send(new ProducerRecord<>("durable", Long.toString(i), value), (md, e) -> {
                        if (e == null) {
                            acknowledged.add(value);
                        } else {
                            failed.incrementAndGet();
                        }
                    });
                    if (i % 500 == 0) {
                        producer.flush(); // keep the writer at the broker's pace, like a real pipeline
                    }
                }
                producer.flush();
                return null;
            });
            await().atMost(Duration.ofSeconds(30)).until(() -> acknowledged.size() >= 2_000);

            long pid = kafka.pid(NODE);
            kafka.kill9(NODE);
            assertThat(kafka.isAlive(NODE)).isFalse();
            assertThat(ProcessHandle.of(pid)).isEmpty();
            int ackedAtKill = acknowledged.size();

            kafka.restart(NODE);
            assertThat(kafka.pid(NODE)).isNotEqualTo(pid);
            await().atMost(Duration.ofSeconds(60)).until(() -> acknowledged.size() >= ackedAtKill + 2_000);
            running.set(false);
            sending.get(90, TimeUnit.SECONDS);
        } finally {
            executor.shutdownNow();
        }

        Set<String> stored =
                kafka.readAll("durable").stream().map(TestRecord::valueAsString).collect(Collectors.toSet());
        assertThat(stored).containsAll(acknowledged);
        assertThat(acknowledged.size()).isGreaterThanOrEqualTo(4_000);
    }

    @Test
    @Order(2)
    void answersNothingWhilePausedAndEverythingAfterResume() throws Exception {
        Map<String, Object> config = new HashMap<>(kafka.clientProperties());
        config.put("request.timeout.ms", "1000");
        config.put("default.api.timeout.ms", "1500");
        try (Admin admin = Admin.create(config)) {
            kafka.pause(NODE);
            assertThat(kafka.isAlive(NODE)).isTrue();
            assertThatThrownBy(() -> admin.listTopics().names().get(3, TimeUnit.SECONDS))
                    .isInstanceOfAny(TimeoutException.class, ExecutionException.class);

            kafka.resume(NODE);
            await().atMost(Duration.ofSeconds(20))
                    .ignoreExceptions()
                    .until(() ->
                            admin.listTopics().names().get(2, TimeUnit.SECONDS).contains("durable"));
        }
    }

    @Test
    @Order(3)
    void shutsDownCleanlyOnSigtermAndRestartsOnTheSameData() throws Exception {
        var endBefore = kafka.endOffsets("durable");
        long logSizeBefore = Files.size(kafka.logFile(NODE));
        kafka.stop(NODE);
        assertThat(kafka.isAlive(NODE)).isFalse();
        String shutdownLog = Files.readString(kafka.logFile(NODE)).substring((int) logSizeBefore);
        assertThat(shutdownLog).contains("shut down completed").doesNotContain("halting broker");

        String logged = StandardError.during(() -> kafka.restart(NODE));

        assertThat(logged)
                .as("what the kit's clients logged while the broker started again")
                .doesNotContain("could not be established");
        assertThat(kafka.endOffsets("durable")).isEqualTo(endBefore);
        kafka.produce("durable", List.of(TestRecord.of("after", "restart")));
        assertThat(kafka.readAll("durable"))
                .extracting(TestRecord::valueAsString)
                .contains("restart");
    }
}
