package io.etl.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.testkit.internal.EmbeddedKafkaCluster;
import io.etl.testkit.internal.ForkedKafkaClusterImpl;
import io.etl.testkit.internal.Resources;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class NoLeftoversIT {

    @Test
    void deletesTheEmbeddedBrokersDirectoryOnClose() {
        Path workDir;
        try (KafkaTestCluster kafka = KafkaTestCluster.embedded()) {
            workDir = ((EmbeddedKafkaCluster) kafka).workDirectory();
            kafka.createTopic("leftover-check", 1);
            assertThat(workDir).isDirectory();
        }
        assertThat(workDir).doesNotExist();
    }

    @Test
    void endsEveryForkedProcessAndDeletesItsDirectoryOnClose() throws Exception {
        ForkedKafkaCluster kafka = KafkaTestCluster.forkedSingle();
        Path workDir = ((ForkedKafkaClusterImpl) kafka).workDirectory();
        long pid = kafka.pid(ForkedKafkaCluster.SINGLE_NODE_ID);
        assertThat(forkedBrokerDescendants()).contains(pid);

        kafka.close();

        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).isIn(Optional.empty(), Optional.of(false));
        assertThat(forkedBrokerDescendants()).isEmpty();
        assertThat(workDir).doesNotExist();
        // only clusters that other test classes still hold (shared, embedded ones) may have directories
        assertThat(ourTempDirs())
                .allSatisfy(dir -> assertThat(dir.getFileName().toString()).contains("embedded"));
        assertThat(kafka.logFile(ForkedKafkaCluster.SINGLE_NODE_ID)).exists(); // logs are kept under target/
    }

    @Test
    void haltsAForkedBrokerWhoseParentJvmDied() throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp",
                classpath(),
                OrphanedBrokerParent.class.getName()));
        Process parent = new ProcessBuilder(command).redirectErrorStream(true).start();
        Map<String, String> printed = new HashMap<>();
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8))) {
            out.lines()
                    .filter(l -> l.contains("=") && (l.startsWith("BROKER_PID") || l.startsWith("WORK_DIR")))
                    .forEach(l -> printed.put(l.substring(0, l.indexOf('=')), l.substring(l.indexOf('=') + 1)));
        }
        parent.waitFor();
        assertThat(printed).containsKeys("BROKER_PID", "WORK_DIR");
        long brokerPid = Long.parseLong(printed.get("BROKER_PID"));
        Path orphanDir = Paths.get(printed.get("WORK_DIR"));
        try {
            await().atMost(Duration.ofSeconds(20))
                    .until(() ->
                            ProcessHandle.of(brokerPid).map(p -> !p.isAlive()).orElse(true));
        } finally {
            deleteRecursively(orphanDir); // the parent died without its shutdown hook: clean up for it
        }
    }

    private static List<Path> ourTempDirs() throws Exception {
        try (Stream<Path> entries = Files.list(Paths.get(System.getProperty("java.io.tmpdir")))) {
            return entries.filter(p -> p.getFileName().toString().startsWith(Resources.tempDirectoryPrefix()))
                    .collect(Collectors.toList());
        }
    }

    /** Every live process below this JVM: the kit's brokers are the only children a test here starts. */
    private static List<Long> forkedBrokerDescendants() {
        return ProcessHandle.current()
                .descendants()
                .filter(ProcessHandle::isAlive)
                .map(ProcessHandle::pid)
                .collect(Collectors.toList());
    }

    private static String classpath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp == null || cp.isBlank() ? System.getProperty("java.class.path") : cp;
    }

    private static void deleteRecursively(Path root) throws Exception {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.deleteIfExists(p);
            }
        }
    }
}
