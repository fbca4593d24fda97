package io.etl.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The proxy's modes against a small echo server: what arrives, what waits, what vanishes, what is reset. */
@Timeout(30)
class TcpProxyTest {

    private ServerSocket echo;
    private final AtomicInteger bytesEchoed = new AtomicInteger();
    private TcpProxy proxy;

    @BeforeEach
    void startEchoServerAndProxy() throws IOException {
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::echoConnections, "echo-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        proxy = TcpProxy.start("127.0.0.1", echo.getLocalPort());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
    }

    private void echoConnections() {
        while (!echo.isClosed()) {
            try {
                Socket s = echo.accept();
                Thread t = new Thread(() -> echoOne(s), "echo");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void echoOne(Socket s) {
        try (s;
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream()) {
            byte[] buffer = new byte[1024];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                bytesEchoed.addAndGet(n);
                out.write(buffer, 0, n);
            }
        } catch (IOException e) {
            // the client went away
        }
    }

    private Socket connect() throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", proxy.port()), 2_000);
        s.setSoTimeout(5_000);
        return s;
    }

    private static void send(Socket s, String text) throws IOException {
        s.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
    }

    private static String receive(Socket s, int length) throws IOException {
        byte[] data = s.getInputStream().readNBytes(length);
        return new String(data, StandardCharsets.US_ASCII);
    }

    @Test
    void forwardsBothWaysInPassMode() throws IOException {
        assertThat(proxy.address()).isEqualTo("127.0.0.1:" + proxy.port());
        assertThat(proxy.mode()).isEqualTo(TcpProxy.Mode.PASS);
        try (Socket s = connect()) {
            send(s, "hello");
            assertThat(receive(s, 5)).isEqualTo("hello");
            assertThat(proxy.openConnections()).isEqualTo(1);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> proxy.openConnections() == 0);
    }

    @Test
    void holdsBytesWithoutLosingThemAndDeliversThemInOrderOnPass() throws IOException {
        try (Socket s = connect()) {
            send(s, "a");
            assertThat(receive(s, 1)).isEqualTo("a");
            proxy.hold();
            send(s, "bc");
            send(s, "de");
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> bytesEchoed.get() == 1);
            proxy.pass();
            assertThat(receive(s, 4)).isEqualTo("bcde");
        }
    }

    @Test
    void holdsNewConnectionsUntilPass() throws IOException {
        proxy.hold();
        try (Socket s = connect()) {
            send(s, "late");
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> bytesEchoed.get() == 0);
            proxy.pass();
            assertThat(receive(s, 4)).isEqualTo("late");
        }
    }

    @Test
    void blackHolesAConnectionForGoodWithoutTellingEitherEnd() throws IOException {
        try (Socket s = connect()) {
            send(s, "x");
            assertThat(receive(s, 1)).isEqualTo("x");
            proxy.drop();
            send(s, "lost");
            s.setSoTimeout(500);
            // silence, not an end of stream or a reset: the client learns only by its own timeout
            assertThatThrownBy(() -> s.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
            proxy.pass();
            send(s, "after");
            assertThatThrownBy(() -> s.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
            assertThat(bytesEchoed).hasValue(1);
        }
        try (Socket fresh = connect()) {
            send(fresh, "new");
            assertThat(receive(fresh, 3))
                    .as("a connection opened after the black hole")
                    .isEqualTo("new");
        }
    }

    @Test
    void blackHolesConnectionsOpenedDuringTheDrop() throws IOException {
        proxy.drop();
        try (Socket s = connect()) {
            s.setSoTimeout(500);
            send(s, "hello");
            assertThatThrownBy(() -> s.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
            assertThat(bytesEchoed).hasValue(0);
        }
    }

    @Test
    void resetEndsEveryOpenConnectionWithARstAndKeepsTheMode() throws IOException {
        try (Socket first = connect();
                Socket second = connect()) {
            send(first, "1");
            send(second, "2");
            assertThat(receive(first, 1)).isEqualTo("1");
            assertThat(receive(second, 1)).isEqualTo("2");
            proxy.drop();

            assertThat(proxy.reset()).isEqualTo(2);

            assertThatThrownBy(() -> {
                        send(first, "more");
                        first.getInputStream().read();
                    })
                    .isInstanceOf(SocketException.class)
                    .hasMessageContaining("reset");
            assertThat(proxy.mode()).isEqualTo(TcpProxy.Mode.DROP);
            assertThat(proxy.openConnections()).isZero();
        }
    }

    @Test
    void endsTheClientsConnectionWhenTheTargetIsDown() throws IOException {
        int nobody;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            nobody = closed.getLocalPort();
        }
        try (TcpProxy toNobody = TcpProxy.start("127.0.0.1", nobody);
                Socket s = new Socket("127.0.0.1", toNobody.port())) {
            s.setSoTimeout(5_000);
            // the proxy may end the connection before the write, or after it: either way the client learns
            assertThatThrownBy(() -> {
                        send(s, "anyone?");
                        if (s.getInputStream().read() < 0) {
                            throw new SocketException("end of stream");
                        }
                    })
                    .isInstanceOf(SocketException.class);
        }
    }
}
