package io.etl.testkit.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BootstrapAddressTest {

    @Test
    void readsHostAndPortWithOrWithoutAListenerPrefix() {
        assertThat(AbstractKafkaTestCluster.socketAddress("127.0.0.1:9092").getPort())
                .isEqualTo(9092);
        assertThat(AbstractKafkaTestCluster.socketAddress(" PLAINTEXT://localhost:19092")
                        .getHostString())
                .isEqualTo("localhost");
        assertThat(AbstractKafkaTestCluster.socketAddress("SASL_SSL://localhost:19093")
                        .getPort())
                .isEqualTo(19093);
    }

    @Test
    void readsABracketedIpv6Host() {
        assertThat(AbstractKafkaTestCluster.socketAddress("[::1]:9092")
                        .getAddress()
                        .isLoopbackAddress())
                .isTrue();
    }

    @Test
    void rejectsAnAddressWithoutAPort() {
        assertThatThrownBy(() -> AbstractKafkaTestCluster.socketAddress("localhost"))
                .isInstanceOf(RuntimeException.class);
    }
}
