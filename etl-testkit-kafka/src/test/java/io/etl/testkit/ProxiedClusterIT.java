package io.etl.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** A broker started with {@code proxied()}: clients bootstrapped through its proxy learn only the proxy's address. */
class ProxiedClusterIT {

    @AutoClose
    private static final KafkaTestCluster kafka =
            KafkaTestCluster.embedded(BrokerOptions.builder().proxied().build());

    private static Admin proxiedAdmin() {
        Map<String, Object> config = new HashMap<>(kafka.clientProperties());
        config.put("bootstrap.servers", kafka.proxies().orElseThrow().bootstrapServers());
        config.put("default.api.timeout.ms", "3000");
        config.put("request.timeout.ms", "2000");
        return Admin.create(config);
    }

    @Test
    void advertisesTheProxyToClientsThatCameThroughItAndTheListenerToTheOthers() throws Exception {
        BrokerProxies proxies = kafka.proxies().orElseThrow();
        TcpProxy proxy = proxies.of(1);
        assertThat(proxies.bootstrapServers()).isEqualTo(proxy.address());
        assertThat(proxy.address()).isNotEqualTo(kafka.bootstrapServers());

        try (Admin admin = proxiedAdmin()) {
            assertThat(ports(admin)).containsExactly(proxy.port());
        }
        try (Admin admin = kafka.newAdmin()) {
            assertThat(ports(admin))
                    .containsExactly(Integer.parseInt(kafka.bootstrapServers().split(":")[1]));
        }
    }

    @Test
    void cutsOffOnlyTheClientsBehindTheProxy() throws Exception {
        BrokerProxies proxies = kafka.proxies().orElseThrow();
        try (Admin admin = proxiedAdmin()) {
            assertThat(ports(admin)).hasSize(1);
            proxies.drop();
            try {
                assertThatThrownBy(() -> admin.describeCluster().nodes().get(10, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class)
                        .hasCauseInstanceOf(TimeoutException.class);
                kafka.createTopic("direct", 1);
                assertThat(kafka.endOffsets("direct")).hasSize(1);
            } finally {
                proxies.pass();
                proxies.reset();
            }
            assertThat(ports(admin)).as("answers again after the reset").hasSize(1);
        }
    }

    private static Set<Integer> ports(Admin admin) throws Exception {
        List<Node> nodes = List.copyOf(admin.describeCluster().nodes().get(10, TimeUnit.SECONDS));
        return nodes.stream().map(Node::port).collect(Collectors.toSet());
    }
}
