package io.etl.kafka.common.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class ListenerProbeTest {

    /** A one-connection listener on loopback that reads the request, then does what {@code answer} says. */
    private static ListenerProbe.Result probeAgainst(Consumer<Socket> answer) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> {
                try (Socket s = server.accept()) {
                    InputStream in = s.getInputStream();
                    in.readNBytes(14);
                    answer.accept(s);
                    done.await();
                } catch (IOException | InterruptedException e) {
                    // the probe closed its side
                }
            });
            t.setDaemon(true);
            t.start();
            try {
                return ListenerProbe.probe(
                        "nowhere.invalid:1, 127.0.0.1:" + server.getLocalPort(), Duration.ofMillis(500));
            } finally {
                done.countDown();
            }
        }
    }

    private static void write(Socket s, int... bytes) {
        try {
            OutputStream out = s.getOutputStream();
            for (int b : bytes) {
                out.write(b);
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aTlsAlertIsRecognisedAsTls() throws Exception {
        ListenerProbe.Result result = probeAgainst(s -> write(s, 0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x0a));
        assertThat(result.answer()).isEqualTo(ListenerProbe.Answer.TLS);
        assertThat(result.address()).startsWith("127.0.0.1:");
    }

    @Test
    void aSizePrefixedResponseIsKafka() throws Exception {
        assertThat(probeAgainst(s -> write(s, 0, 0, 1, 0x2c, 0, 0, 0, 1)).answer())
                .isEqualTo(ListenerProbe.Answer.KAFKA);
    }

    @Test
    void aListenerThatNeverAnswersIsSilent() throws Exception {
        assertThat(probeAgainst(s -> {}).answer()).isEqualTo(ListenerProbe.Answer.SILENT);
    }

    @Test
    void aConnectionClosedWithoutAWordProvesNothing() throws Exception {
        assertThat(probeAgainst(s -> {
                            try {
                                s.close();
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        })
                        .answer())
                .isEqualTo(ListenerProbe.Answer.SILENT);
    }

    @Test
    void nothingListeningIsUnreachable() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        assertThat(ListenerProbe.probe("127.0.0.1:" + port, Duration.ofMillis(300))
                        .answer())
                .isEqualTo(ListenerProbe.Answer.UNREACHABLE);
    }

    private static int closedPort() throws IOException {
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return free.getLocalPort();
        }
    }

    @Test
    void awaitingBrokersThatNeverListenGivesUpAtTheBound() throws Exception {
        long started = System.nanoTime();

        boolean accepted = ListenerProbe.awaitAccepting("127.0.0.1:" + closedPort(), Duration.ofMillis(700));

        assertThat(accepted).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(700));
    }

    @Test
    void awaitingReturnsOnceABrokerStartsListening() throws Exception {
        int port = closedPort();
        ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
        CompletableFuture<ServerSocket> listening = new CompletableFuture<>();
        later.schedule(
                () -> {
                    try {
                        listening.complete(new ServerSocket(port, 1, InetAddress.getLoopbackAddress()));
                    } catch (IOException e) {
                        listening.completeExceptionally(e);
                    }
                },
                400,
                TimeUnit.MILLISECONDS);
        try {
            assertThat(ListenerProbe.awaitAccepting(
                            "127.0.0.1:" + closedPort() + ",127.0.0.1:" + port, Duration.ofSeconds(30)))
                    .isTrue();
            assertThat(listening)
                    .as("it returned only once the listener was there")
                    .isCompleted();
        } finally {
            later.shutdownNow();
            listening.thenAccept(ListenerProbeTest::close);
        }
    }

    @Test
    void hostsThatDoNotResolveAreLeftToTheClientToReport() {
        long started = System.nanoTime();

        assertThat(ListenerProbe.awaitAccepting("nowhere.invalid:9092", Duration.ofSeconds(30)))
                .isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }

    private static void close(ServerSocket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
