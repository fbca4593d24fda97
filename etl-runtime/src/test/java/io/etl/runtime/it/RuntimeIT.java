package io.etl.runtime.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.runtime.ExitCodes;
import io.etl.runtime.it.CopyYaml.Section;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime as deployed: the shaded jar plus a user's pipeline jar in a child JVM, against a real broker
 * (which creates no topic by itself, so a missing sink topic is a fatal failure).
 */
@EmbeddedKafka(brokerProperties = "auto.create.topics.enable=false")
class RuntimeIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration START = Duration.ofSeconds(90);

    private final List<ChildRuntime> children = new ArrayList<>();

    @TempDir
    Path dir;

    @AfterEach
    void killChildren() {
        children.forEach(ChildRuntime::close);
    }

    private static String yaml(String uid, String brokers, String input, String output) {
        return CopyYaml.of(uid, brokers, input, output)
                .with(Section.PIPELINE, "shutdown_timeout: 25s")
                .with(Section.SOURCE, """
                        auto_offset_reset: earliest
                        max_poll_records: 100
                        session_timeout: 10s
                        """)
                .with(Section.SINK, """
                        delivery_timeout: 15s
                        batch: {max_records: 100, linger: 5ms}
                        """)
                .with(Section.TOP, "checkpoint: {interval: 200ms, drain_timeout: 15s}")
                .render();
    }

    private ChildRuntime start(String uid, String yaml, Map<String, String> env) throws Exception {
        Path config = Files.writeString(dir.resolve(uid + ".yaml"), yaml);
        ChildRuntime child = ChildRuntime.start(dir, uid, config, env);
        children.add(child);
        return child;
    }

    @Test
    @Timeout(180)
    void isReadyAfterAssignmentServesMetricsAndDrainsOnSigtermWithEverythingCommitted(KafkaTestCluster kafka)
            throws Exception {
        CopyTopics t = CopyTopics.random();
        kafka.createTopic(t.input(), 3);
        kafka.createTopic(t.output(), 3);
        int records = 600;
        kafka.produce(t.input(), records, i -> TestRecord.of("k" + i, "v" + i));

        // 15 ms a record: the copy takes ~9 s, long enough to stop it halfway
        ChildRuntime child = start(
                t.uid(),
                yaml(t.uid(), kafka.bootstrapServers(), t.input(), t.output()),
                Map.of(CopyPipelineFactory.PACE_ENV, "15"));

        List<JsonNode> notReady = new ArrayList<>();
        await("ready").atMost(START).pollInterval(Duration.ofMillis(20)).until(() -> {
            ChildRuntime.Answer ready = child.get("/health/ready");
            if (ready.status() == 503) {
                notReady.add(JSON.readTree(ready.body()));
            }
            assertThat(child.isAlive())
                    .as("the runtime exited early; stderr:%n%s", child.err())
                    .isTrue();
            return ready.status() == 200;
        });
        JsonNode ready = JSON.readTree(child.get("/health/ready").body());
        assertThat(ready.get("status").asText()).isEqualTo("UP");
        assertThat(ready.get("state").asText()).isIn("RUNNING", "BACKPRESSURED");
        assertThat(ready.get("pipeline").asText()).isEqualTo("copy-" + t.uid());
        assertThat(ready.get("assigned_partitions")).hasSize(3);
        assertThat(ready.get("breakers").get("out/0").asText()).isEqualTo("closed");
        assertThat(notReady)
                .as("answers before the first assignment")
                .isNotEmpty()
                .allSatisfy(body -> assertThat(body.get("state").asText()).isEqualTo("STARTING"));

        ChildRuntime.Answer live = child.get("/health/live");
        assertThat(live.status()).isEqualTo(200);
        assertThat(JSON.readTree(live.body()).get("status").asText()).isEqualTo("UP");

        await("some records committed")
                .atMost(START)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> committed(kafka, t.group()) >= 100);
        // the pipeline counts a commit once the consumer hands it the broker's answer, a poll after the broker stored
        // it
        await("committed offsets in the metrics")
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> child.get("/metrics").body().contains("etl_checkpoint_committed_offset"));
        ChildRuntime.Answer metrics = child.get("/metrics");
        assertThat(metrics.status()).isEqualTo(200);
        assertThat(metrics.body())
                .contains(
                        "etl_source_records_total",
                        "etl_sink_records_total",
                        "etl_checkpoint_committed_offset",
                        "etl_kafka_source_",
                        "jvm_memory_used_bytes",
                        "process_uptime_seconds");

        child.sigterm();
        List<String> drainingStates = new ArrayList<>();
        await("not ready while draining")
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(10))
                .until(() -> {
                    ChildRuntime.Answer a = child.get("/health/ready");
                    if (a.status() == 503) {
                        drainingStates.add(JSON.readTree(a.body()).get("state").asText());
                        return true;
                    }
                    return a.status() == -1; // already gone: fails below
                });
        assertThat(drainingStates).as("readiness after SIGTERM").containsOnly("DRAINING");

        int exit = child.waitFor(Duration.ofSeconds(30));
        assertThat(exit).as("exit code after SIGTERM; stderr:%n%s", child.err()).isEqualTo(ExitCodes.OK);
        long written = kafka.endTotal(t.output());
        assertThat(written).as("stopped halfway").isGreaterThan(0).isLessThan(records);
        assertThat(committed(kafka, t.group()))
                .as("everything written was committed")
                .isEqualTo(written);
        assertThat(child.err()).contains("SIGTERM received").doesNotContain("error:");
    }

    @Test
    @Timeout(120)
    void aSigtermWhileTheStartWaitsForBrokersThatDoNotAnswerStopsAtOnceWithExitZero() throws Exception {
        String uid = UUID.randomUUID().toString().substring(0, 8);
        String nobody;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            nobody = "127.0.0.1:" + free.getLocalPort(); // closed again: nothing listens there
        }
        // the checks would wait startup_timeout (30 s by default) for these brokers
        ChildRuntime child = start(uid, yaml(uid, nobody, "in-" + uid, "out-" + uid), Map.of());
        await("the sink's opening").atMost(START).until(() -> child.err().contains("writing topic"));

        long signalled = System.nanoTime();
        child.sigterm();
        int exit = child.waitFor(Duration.ofSeconds(20));
        Duration took = Duration.ofNanos(System.nanoTime() - signalled);

        assertThat(exit).as("exit code; stderr:%n%s", child.err()).isEqualTo(ExitCodes.OK);
        assertThat(took).as("from SIGTERM to exit").isLessThan(Duration.ofSeconds(10));
        assertThat(child.err()).contains("stopped while starting").doesNotContain("error:");
    }

    @Test
    @Timeout(120)
    void aPipelineWhoseSinkFailsFatallyExitsOneWithTheCauseOnStderr(KafkaTestCluster kafka) throws Exception {
        String uid = UUID.randomUUID().toString().substring(0, 8);
        String input = "in-" + uid;
        String missing = "missing-" + uid;
        kafka.createTopic(input, 1);
        kafka.produce(input, 10, i -> TestRecord.of("k" + i, "v" + i));

        ChildRuntime child = start(uid, yaml(uid, kafka.bootstrapServers(), input, missing), Map.of());

        int exit = child.waitFor(START);
        String err = child.err();
        assertThat(exit).as("exit code; stderr:%n%s", err).isEqualTo(ExitCodes.FAILED);
        String cause = err.lines()
                .filter(l -> l.startsWith("error: pipeline 'copy-" + uid + "' failed: "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no one-line cause on stderr:\n" + err));
        assertThat(cause).contains(missing);
        assertThat(committed(kafka, "group-" + uid)).as("nothing was committed").isZero();
    }

    @Test
    @Timeout(120)
    void aStopThatOutlastsTheShutdownTimeoutExitsThreeAndASecondSignalExitsAtOnce(KafkaTestCluster kafka)
            throws Exception {
        CopyTopics t = CopyTopics.random();
        kafka.createTopic(t.input(), 1);
        kafka.createTopic(t.output(), 1);
        kafka.produce(t.input(), 20, i -> TestRecord.of("k" + i, "v" + i));
        // each record takes 5 s: a stop cannot finish inside a 3 s budget
        String yaml = yaml(t.uid(), kafka.bootstrapServers(), t.input(), t.output())
                .replace("shutdown_timeout: 25s", "shutdown_timeout: 3s")
                .replace("drain_timeout: 15s", "drain_timeout: 2s");
        Map<String, String> slow = Map.of(CopyPipelineFactory.PACE_ENV, "5000");

        ChildRuntime budget = start(t.uid() + "-budget", yaml, slow);
        awaitReady(budget);
        awaitRecordsRead(budget);
        long signalled = System.nanoTime();
        budget.sigterm();
        int exit = budget.waitFor(Duration.ofSeconds(30));
        Duration took = Duration.ofNanos(System.nanoTime() - signalled);
        assertThat(exit).as("exit code; stderr:%n%s", budget.err()).isEqualTo(ExitCodes.STOP_BUDGET_EXCEEDED);
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofSeconds(3)).isLessThan(Duration.ofSeconds(15));
        assertThat(budget.err()).contains("did not stop within pipeline.shutdown_timeout (3s)");

        ChildRuntime impatient = start(t.uid() + "-twice", yaml.replace(t.group(), "group2-" + t.uid()), slow);
        awaitReady(impatient);
        awaitRecordsRead(impatient);
        impatient.sigterm();
        await("draining")
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> impatient.get("/health/ready").status() == 503);
        impatient.sigterm();
        assertThat(impatient.waitFor(Duration.ofSeconds(10)))
                .as("stderr:%n%s", impatient.err())
                .isEqualTo(ExitCodes.SECOND_SIGNAL);
        assertThat(impatient.err()).contains("SIGTERM again: exiting without waiting for the drain");
    }

    private static void awaitReady(ChildRuntime child) {
        await("ready").atMost(START).pollInterval(Duration.ofMillis(50)).until(() -> {
            assertThat(child.isAlive())
                    .as("the runtime exited early; stderr:%n%s", child.err())
                    .isTrue();
            return child.get("/health/ready").status() == 200;
        });
    }

    /** Until the source has read something: the (slow) pipeline is then busy with a record. */
    private static void awaitRecordsRead(ChildRuntime child) {
        await("records read")
                .atMost(START)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> child.get("/metrics")
                                .body()
                                .lines()
                                .filter(l -> l.startsWith("etl_source_records_total{"))
                                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                                .sum()
                        > 0);
    }

    private static long committed(KafkaTestCluster kafka, String group) {
        return kafka.committedTotal(group);
    }
}
