package io.etl.runtime.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.runtime.ExitCodes;
import io.etl.runtime.Main;
import io.etl.runtime.it.CopyYaml.Section;
import io.etl.testkit.BrokerOptions;
import io.etl.testkit.BrokerSecurity;
import io.etl.testkit.ClusterSecurity;
import io.etl.testkit.KafkaTestCluster;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.acl.AclOperation;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check} against a SASL_SSL/SCRAM broker with ACLs: the copy pipeline's source topic, group and sink topic
 * as the command reads them from the YAML through the pipeline factory.
 */
class CheckCommandIT {

    @AutoClose
    private static final KafkaTestCluster kafka = KafkaTestCluster.embedded(BrokerOptions.builder()
            .brokerProperty("auto.create.topics.enable", "false")
            .security(BrokerSecurity.saslScram().aclAuthorizer(true).build())
            .build());

    private static final ClusterSecurity security = kafka.security().orElseThrow();

    @TempDir
    Path dir;

    private record Result(int exit, String out, String err) {}

    private Path config(CopyTopics t, String user) {
        String securitySection = """
                security:
                  protocol: SASL_SSL
                  tls: {ca_file: "%s"}
                  sasl: {mechanism: SCRAM-SHA-512, username: %s, password: "${CHECK_PASSWORD}"}
                """.formatted(security.caCertificatePemPath(), user);
        return CopyYaml.of(t.uid(), kafka.bootstrapServers(), t.input(), t.output())
                .with(Section.SOURCE, securitySection)
                .with(Section.SINK, "max_message_bytes: 1MiB")
                .with(Section.SINK, securitySection)
                .write(dir);
    }

    /** {@code java -cp etl-runtime.jar:copy-pipeline.jar io.etl.runtime.Main check ...}, as a user runs it. */
    private Result checkInChild(Path config, String password) throws Exception {
        Path out = dir.resolve("check.out");
        Path err = dir.resolve("check.err");
        ProcessBuilder pb = new ProcessBuilder(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx256m",
                        "-XX:+UseSerialGC",
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        ChildRuntime.runtimeJar() + File.pathSeparator + ChildRuntime.pipelineJar(dir),
                        "io.etl.runtime.Main",
                        "check",
                        "--config",
                        config.toString(),
                        "--pipeline",
                        CopyPipelineFactory.NAME,
                        "--timeout",
                        "20s"))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().put("CHECK_PASSWORD", password);
        Process process = pb.start();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("check did not exit within 90 s; stderr:\n" + Files.readString(err));
        }
        return new Result(
                process.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    @Timeout(120)
    void missingSinkTopicExitsOneNamingItThenZeroOnceItExists() throws Exception {
        CopyTopics t = CopyTopics.random();
        kafka.createTopic(t.input(), 3);
        Path config = config(t, BrokerSecurity.DEFAULT_SUPER_USER);

        Result missing = checkInChild(config, BrokerSecurity.DEFAULT_SUPER_USER_PASSWORD);

        assertThat(missing.exit()).as(missing.toString()).isEqualTo(ExitCodes.FAILED);
        assertThat(missing.out())
                .contains("sinks.out.kafka.topic: topic '" + t.output() + "' does not exist on brokers "
                        + kafka.bootstrapServers())
                .contains("source.in.kafka.topics: info: topic '" + t.input() + "' has 3 partition(s)")
                .endsWith("not ready: 1 problem" + System.lineSeparator());

        kafka.createTopic(t.output(), 2);
        Result ready = checkInChild(config, BrokerSecurity.DEFAULT_SUPER_USER_PASSWORD);

        assertThat(ready.exit()).as(ready.toString()).isEqualTo(ExitCodes.OK);
        assertThat(ready.out())
                .contains("sinks.out.kafka.topic: info: topic '" + t.output() + "' has 2 partition(s)")
                .endsWith("ready" + System.lineSeparator());
        assertThat(ready.out() + ready.err()).doesNotContain(BrokerSecurity.DEFAULT_SUPER_USER_PASSWORD);
    }

    @Test
    @Timeout(120)
    void principalWithoutWriteOnTheSinkTopicExitsOneNamingTopicAndOperation() throws Exception {
        CopyTopics t = CopyTopics.random();
        kafka.createTopic(t.input(), 1);
        kafka.createTopic(t.output(), 1);
        String user = "etl-" + t.uid();
        String password = "pw-" + t.uid();
        security.createUser(user, password);
        security.allowTopic(user, t.input(), AclOperation.READ, AclOperation.DESCRIBE);
        security.allowGroup(user, t.group());
        security.allowTopic(user, t.output(), AclOperation.DESCRIBE);
        Path config = config(t, user);

        Result denied = checkInChild(config, password);

        assertThat(denied.exit()).as(denied.toString()).isEqualTo(ExitCodes.FAILED);
        assertThat(denied.out())
                .contains("sinks.out.kafka.topic: principal User:" + user + " is not authorized to WRITE topic '"
                        + t.output() + "'");
        assertThat(denied.out().lines().filter(l -> !l.contains(": info: ")).toList())
                .allSatisfy(l -> assertThat(l)
                        .matches("(sinks\\.out\\.kafka.*|source\\.in\\.kafka.*|not ready: \\d+ problems?)"));
        assertThat(denied.out() + denied.err()).doesNotContain(password);

        security.allowTopic(user, t.output(), AclOperation.WRITE);
        Result allowed = checkInChild(config, password);
        assertThat(allowed.exit()).as(allowed.toString()).isEqualTo(ExitCodes.OK);
    }

    @Test
    @Timeout(120)
    void sinkTopicWithSmallerMaxMessageBytesThanTheGuardIsNamed() throws Exception {
        CopyTopics t = CopyTopics.random();
        kafka.createTopic(t.input(), 1);
        kafka.createTopic(t.output(), 1, -1, Map.of("max.message.bytes", "65536"));
        Path config = config(t, BrokerSecurity.DEFAULT_SUPER_USER);

        Result small = checkInChild(config, BrokerSecurity.DEFAULT_SUPER_USER_PASSWORD);

        assertThat(small.exit()).as(small.toString()).isEqualTo(ExitCodes.FAILED);
        assertThat(small.out())
                .contains("sinks.out.kafka.max_message_bytes: 1048576 bytes is more than topic '" + t.output()
                        + "' accepts: max.message.bytes is 65536");
    }

    @Test
    @Timeout(120)
    void missingDeadLetterTopicIsNamedWhenAStageUsesIt() throws Exception {
        CopyTopics t = CopyTopics.random();
        String dlt = "dlt-" + t.uid();
        kafka.createTopic(t.input(), 1);
        kafka.createTopic(t.output(), 1);
        Path base = config(t, BrokerSecurity.DEFAULT_SUPER_USER);
        // the source's security section, two spaces less indented: dead_letter.kafka sits one level higher
        String security = Files.readString(base)
                .lines()
                .dropWhile(l -> !l.contains("security:"))
                .limit(4)
                .map(l -> l.substring(2) + "\n")
                .reduce("", String::concat);
        String yaml = Files.readString(base)
                        .replace(
                                "      group_id: " + t.group(),
                                "      group_id: " + t.group() + "\n      on_error: dead_letter")
                + "dead_letter:\n  kafka:\n    brokers: \"" + kafka.bootstrapServers() + "\"\n    topic: " + dlt
                + "\n" + security;
        Path config = Files.writeString(dir.resolve(t.uid() + "-dlt.yaml"), yaml);

        Result missing = checkInChild(config, BrokerSecurity.DEFAULT_SUPER_USER_PASSWORD);

        assertThat(missing.exit()).as(missing.toString()).isEqualTo(ExitCodes.FAILED);
        assertThat(missing.out()).contains("dead_letter.kafka.topic: topic '" + dlt + "' does not exist");

        kafka.createTopic(dlt, 1);
        Result ready = checkInChild(config, BrokerSecurity.DEFAULT_SUPER_USER_PASSWORD);
        assertThat(ready.exit()).as(ready.toString()).isEqualTo(ExitCodes.OK);
        assertThat(ready.out()).contains("dead_letter.kafka.topic: info: topic '" + dlt + "' has 1 partition(s)");
    }

    @Test
    void unknownPipelineIsAUsageErrorListingTheNames() throws Exception {
        Path config = Files.writeString(dir.resolve("plain.yaml"), """
                source: {in: {kafka: {brokers: "127.0.0.1:1", topics: [in], group_id: g}}}
                sinks: {out: {kafka: {brokers: "127.0.0.1:1", topic: out}}}
                """);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int exit = Main.execute(
                new PrintWriter(out),
                new PrintWriter(err),
                "check",
                "--config",
                config.toString(),
                "--pipeline",
                "nope");

        assertThat(exit).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("unknown pipeline 'nope'", CopyPipelineFactory.NAME);
    }
}
