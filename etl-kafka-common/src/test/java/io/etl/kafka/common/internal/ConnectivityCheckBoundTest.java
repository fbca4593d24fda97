package io.etl.kafka.common.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.error.ConfigException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The check's timeout bounds the whole check: waiting for a listener, probing it and asking it. */
class ConnectivityCheckBoundTest {

    private static final Duration BOUND = Duration.ofSeconds(4);
    /** Room for a loaded machine; a check that restarted its bound after any step would take twice BOUND. */
    private static final Duration SLACK = Duration.ofMillis(2500);

    private static Duration failingCheck(String brokers, String... expected) {
        long started = System.nanoTime();
        assertThatThrownBy(() -> ConnectivityCheck.of(Map.of("bootstrap.servers", brokers), "sinks.eu.kafka")
                        .timeout(BOUND)
                        .run())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("sinks.eu.kafka.brokers")
                .hasMessageContaining(expected[0]);
        return Duration.ofNanos(System.nanoTime() - started);
    }

    /**
     * One untimed check first: the first admin client of a JVM loads and links most of kafka-clients, which on a
     * busy machine takes seconds that belong to no bound of the check.
     */
    @BeforeAll
    static void loadTheClientClasses() throws IOException {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> ConnectivityCheck.of(
                                    Map.of("bootstrap.servers", "127.0.0.1:" + silent.getLocalPort()), "sinks.eu.kafka")
                            .timeout(Duration.ofMillis(500))
                            .run())
                    .isInstanceOf(ConfigException.class);
        }
    }

    @Test
    void brokersThatNeverListenAreReportedOnceTheBoundIsUp() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }

        Duration took = failingCheck("127.0.0.1:" + port, "none of them accepted a TCP connection");

        assertThat(took).isBetween(BOUND, BOUND.plus(SLACK));
    }

    @Test
    void aListenerThatAcceptsButNeverAnswersIsReportedWithinTheSameBound() throws Exception {
        List<Socket> held = new ArrayList<>();
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        held.add(silent.accept());
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();

            Duration took = failingCheck("127.0.0.1:" + silent.getLocalPort(), "could not reach brokers");

            assertThat(took).isLessThan(BOUND.plus(SLACK));
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
    }
}
