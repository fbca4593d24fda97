package io.etl.runtime.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.runtime.ExitCodes;
import io.etl.runtime.it.CopyYaml.Section;
import io.etl.testkit.BrokerOptions;
import io.etl.testkit.BrokerSecurity;
import io.etl.testkit.ClusterSecurity;
import io.etl.testkit.KafkaTestCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.acl.AclOperation;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tools against a SASL_SSL/SCRAM broker with ACLs, taking the connection and the credentials from the pipeline
 * YAML's security section, as {@code run} does.
 */
class SecuredToolsIT {

    private static final String PASSWORD = "tools-secret";

    @AutoClose
    private static final KafkaTestCluster kafka = KafkaTestCluster.embedded(BrokerOptions.builder()
            .brokerProperty("auto.create.topics.enable", "false")
            .security(BrokerSecurity.scramWithAcls(Map.of("etl", PASSWORD)))
            .build());

    private static final ClusterSecurity security = kafka.security().orElseThrow();

    @TempDir
    Path dir;

    private Path config(CopyTopics t, String password) {
        String securitySection = """
                security:
                  protocol: SASL_SSL
                  tls: {ca_file: "%s"}
                  sasl: {mechanism: SCRAM-SHA-512, username: etl, password: "%s"}
                """.formatted(security.caCertificatePemPath(), password);
        return CopyYaml.of(t.uid(), kafka.bootstrapServers(), t.input(), t.output())
                .with(Section.SOURCE, securitySection)
                .with(Section.SINK, securitySection)
                .write(dir);
    }

    @Test
    void topicsCreateListAndDescribeWithTheSectionsCredentials() {
        CopyTopics t = CopyTopics.random();
        for (String topic : new String[] {t.input(), t.output()}) {
            security.allowTopic(
                    "etl", topic, AclOperation.CREATE, AclOperation.DESCRIBE, AclOperation.DESCRIBE_CONFIGS);
        }
        Path config = config(t, PASSWORD);

        Tools.Result created = Tools.run("topics", "create", "--config", config.toString(), "--partitions", "2");
        Tools.Result listed = Tools.run("topics", "list", "--config", config.toString());
        Tools.Result described = Tools.run("topics", "describe", t.output(), "--config", config.toString());

        assertThat(created.exit()).as("%s", created).isEqualTo(ExitCodes.OK);
        assertThat(created.out()).contains("created: " + t.input(), "created: " + t.output());
        assertThat(listed.out()).contains(t.input(), t.output());
        assertThat(described.exit()).as("%s", described).isEqualTo(ExitCodes.OK);
        assertThat(described.out()).contains("topic " + t.output() + ": 2 partition(s)");
        assertThat(created.out() + created.err() + listed.out() + described.out())
                .doesNotContain(PASSWORD);
    }

    @Test
    void produceAndConsumeWithTheSectionsCredentials() throws Exception {
        CopyTopics t = CopyTopics.random();
        kafka.createTopic(t.input(), 1);
        security.allowTopic("etl", t.input(), AclOperation.READ, AclOperation.WRITE, AclOperation.DESCRIBE);
        Path config = config(t, PASSWORD);
        Path lines = Files.writeString(dir.resolve("lines.txt"), "a:1\nb:2\n");

        Tools.Result produced =
                Tools.run("produce", t.input(), "--config", config.toString(), "--file", lines.toString(), "-K", ":");
        Tools.Result consumed = Tools.run("consume", t.input(), "--config", config.toString());

        assertThat(produced.exit()).as("%s", produced).isEqualTo(ExitCodes.OK);
        assertThat(consumed.exit()).as("%s", consumed).isEqualTo(ExitCodes.OK);
        assertThat(consumed.out().lines().toList())
                .containsExactly(t.input() + "-0@0  key=a  1", t.input() + "-0@1  key=b  2");
    }

    @Test
    void aWrongPasswordIsReportedAsAnAuthenticationFailureNamingTheSection() {
        CopyTopics t = CopyTopics.random();
        kafka.createTopic(t.input(), 1);
        Path config = config(t, "not-the-password");

        Tools.Result consumed = Tools.run("consume", t.input(), "--config", config.toString(), "--timeout", "20s");

        assertThat(consumed.exit()).isEqualTo(ExitCodes.FAILED);
        assertThat(consumed.err()).startsWith("error: source.in.kafka").containsIgnoringCase("authentication");
        assertThat(consumed.err()).doesNotContain("not-the-password");
    }

    @Test
    void aPlaintextClientAtTheTlsListenerIsToldSo() {
        Tools.Result listed = Tools.run("topics", "list", "--brokers", kafka.bootstrapServers(), "--timeout", "10s");

        assertThat(listed.exit()).isEqualTo(ExitCodes.FAILED);
        assertThat(listed.err()).contains("looks like TLS");
    }
}
