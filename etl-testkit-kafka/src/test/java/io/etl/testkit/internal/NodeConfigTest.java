package io.etl.testkit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.testkit.BrokerOptions;
import io.etl.testkit.BrokerSecurity;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeConfigTest {

    private static NodeConfig node(NodeConfig.Role role, int brokers, BrokerOptions options) {
        return new NodeConfig(
                1,
                role,
                9092,
                9093,
                9094,
                Path.of("/tmp/x"),
                "1@127.0.0.1:9094",
                brokers,
                options,
                null,
                false,
                NodeConfig.NO_PORT);
    }

    @Test
    void singleNodeSetsEveryInternalTopicReplicationFactorToOne() {
        Map<String, String> p =
                node(NodeConfig.Role.COMBINED, 1, BrokerOptions.defaults()).properties();
        assertThat(p)
                .containsEntry("offsets.topic.replication.factor", "1")
                .containsEntry("transaction.state.log.replication.factor", "1")
                .containsEntry("transaction.state.log.min.isr", "1")
                .containsEntry("share.coordinator.state.topic.replication.factor", "1")
                .containsEntry("share.coordinator.state.topic.min.isr", "1")
                .containsEntry("group.initial.rebalance.delay.ms", "0")
                .containsEntry("process.roles", "broker,controller");
    }

    @Test
    void clusterOfThreeReplicatesInternalTopicsThreeTimes() {
        Map<String, String> p =
                node(NodeConfig.Role.BROKER, 3, BrokerOptions.defaults()).properties();
        assertThat(p)
                .containsEntry("offsets.topic.replication.factor", "3")
                .containsEntry("transaction.state.log.min.isr", "2")
                .containsEntry("process.roles", "broker")
                .doesNotContainKey("advertised.listeners.controller");
        assertThat(p.get("listeners")).doesNotContain("CONTROLLER");
    }

    @Test
    void extraBrokerPropertiesOverrideTheKitsDefaults() {
        BrokerOptions options = BrokerOptions.builder()
                .brokerProperty("auto.create.topics.enable", "false")
                .brokerProperty("group.initial.rebalance.delay.ms", "100")
                .build();
        Map<String, String> p = node(NodeConfig.Role.COMBINED, 1, options).properties();
        assertThat(p)
                .containsEntry("auto.create.topics.enable", "false")
                .containsEntry("group.initial.rebalance.delay.ms", "100");
    }

    @Test
    void controllerOnlyNodeServesNoClients() {
        Map<String, String> p =
                node(NodeConfig.Role.CONTROLLER, 3, BrokerOptions.defaults()).properties();
        assertThat(p.get("listeners")).isEqualTo("CONTROLLER://127.0.0.1:9094");
        assertThat(p).doesNotContainKeys("advertised.listeners", "inter.broker.listener.name");
    }

    @Test
    void clientProtocolFollowsTheSecurityMode() {
        assertThat(NodeConfig.clientProtocol(null)).isEqualTo("PLAINTEXT");
        assertThat(NodeConfig.clientProtocol(BrokerSecurity.saslScram().build()))
                .isEqualTo("SASL_SSL");
        assertThat(NodeConfig.clientProtocol(BrokerSecurity.mutualTls().build()))
                .isEqualTo("SSL");
    }

    @Test
    void aProxiedBrokerAdvertisesItsProxyOnASecondClientListenerSecuredLikeTheFirst(@TempDir Path dir) {
        BrokerOptions options = BrokerOptions.builder()
                .security(BrokerSecurity.saslScram().build())
                .proxied()
                .build();
        Map<String, String> p = new NodeConfig(
                        2,
                        NodeConfig.Role.BROKER,
                        9092,
                        9093,
                        9094,
                        Path.of("/tmp/x"),
                        "0@127.0.0.1:9094",
                        3,
                        options,
                        TlsMaterial.create(dir),
                        false,
                        NodeConfig.NO_PORT,
                        9095,
                        40001)
                .properties();
        assertThat(p.get("listeners")).contains("PROXIED://127.0.0.1:9095").contains("CLIENT://127.0.0.1:9092");
        assertThat(p.get("advertised.listeners"))
                .contains("PROXIED://127.0.0.1:40001")
                .contains("CLIENT://127.0.0.1:9092")
                .doesNotContain("9095");
        assertThat(p.get("listener.security.protocol.map")).contains("PROXIED:SASL_SSL");
        assertThat(p)
                .containsEntry("listener.name.proxied.sasl.enabled.mechanisms", "SCRAM-SHA-512")
                .containsEntry("listener.name.proxied.ssl.client.auth", "none")
                .containsKey("listener.name.proxied.scram-sha-512.sasl.jaas.config")
                .containsEntry("inter.broker.listener.name", "INTERNAL");
    }

    @Test
    void aControllerOfAProxiedClusterHasNoProxiedListener() {
        Map<String, String> p = node(
                        NodeConfig.Role.CONTROLLER,
                        3,
                        BrokerOptions.builder().proxied().build())
                .properties();
        assertThat(p.get("listeners")).isEqualTo("CONTROLLER://127.0.0.1:9094");
        assertThat(p.get("listener.security.protocol.map")).doesNotContain("PROXIED");
    }
}
