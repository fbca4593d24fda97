package io.etl.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import org.junit.jupiter.api.Test;

class HttpEndpointAddressTest {

    private static HttpEndpoint start(String host) {
        return HttpEndpoint.start(host, 0, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), () -> null);
    }

    @Test
    void anIpv4AddressIsHostColonPort() {
        try (HttpEndpoint http = start("127.0.0.1")) {
            assertThat(http.address()).isEqualTo("127.0.0.1:" + http.port());
        }
    }

    @Test
    void anIpv6AddressIsBracketedSoThatItMakesAUrl() {
        assumeTrue(ipv6LoopbackWorks(), "this host has no IPv6 loopback");
        try (HttpEndpoint http = start("::1")) {
            String url = "http://" + http.address() + HttpEndpoint.METRICS_PATH;

            assertThat(http.address()).startsWith("[").endsWith("]:" + http.port());
            assertThat(URI.create(url).getPort()).isEqualTo(http.port());
        }
    }

    private static boolean ipv6LoopbackWorks() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName("::1"), 0));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
