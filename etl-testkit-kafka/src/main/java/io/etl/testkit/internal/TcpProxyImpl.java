package io.etl.testkit.internal;

import io.etl.testkit.TcpProxy;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link TcpProxy} with blocking sockets: an acceptor thread and, per connection, one pump thread each way.
 * A pump reads a chunk, then waits while the mode is {@code HOLD} (so the sender's buffers fill behind it),
 * and forwards or discards it by the mode it then finds. The few connections a Kafka client opens make
 * threads cheaper to reason about than a selector.
 */
public final class TcpProxyImpl implements TcpProxy {

    private static final Logger LOG = LoggerFactory.getLogger(TcpProxyImpl.class);
    private static final int CHUNK = 64 * 1024;
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final Object lock = new Object();
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final Thread acceptor;
    private volatile Mode mode = Mode.PASS;
    private volatile boolean closed;

    private TcpProxyImpl(ServerSocket server, InetSocketAddress target) {
        this.server = server;
        this.target = target;
        this.acceptor = new Thread(this::acceptLoop, "tcp-proxy-" + server.getLocalPort() + "-accept");
        this.acceptor.setDaemon(true);
    }

    /**
     * @param target where connections go
     * @return a started proxy on a free port of 127.0.0.1
     */
    public static TcpProxyImpl start(InetSocketAddress target) {
        try {
            ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            TcpProxyImpl proxy = new TcpProxyImpl(server, target);
            proxy.acceptor.start();
            LOG.debug("proxy {} -> {} started", proxy.address(), target);
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a proxy port for " + target, e);
        }
    }

    @Override
    public int port() {
        return server.getLocalPort();
    }

    @Override
    public String address() {
        return NodeConfig.HOST + ":" + port();
    }

    @Override
    public InetSocketAddress target() {
        return target;
    }

    @Override
    public Mode mode() {
        return mode;
    }

    @Override
    public void pass() {
        setMode(Mode.PASS);
    }

    @Override
    public void hold() {
        setMode(Mode.HOLD);
    }

    @Override
    public void drop() {
        setMode(Mode.DROP);
    }

    private void setMode(Mode next) {
        synchronized (lock) {
            mode = next;
            lock.notifyAll();
        }
        LOG.info("proxy {} -> {}: {}", address(), target, next);
    }

    @Override
    public int reset() {
        List<Link> open = List.copyOf(links);
        open.forEach(Link::reset);
        LOG.info("proxy {} -> {}: reset {} connection(s)", address(), target, open.size());
        return open.size();
    }

    @Override
    public int openConnections() {
        return links.size();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        synchronized (lock) {
            lock.notifyAll();
        }
        closeQuietly(server);
        List.copyOf(links).forEach(Link::reset);
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("proxy {} stopped accepting: {}", address(), e.toString());
                }
                return;
            }
            Link link = new Link(client);
            links.add(link);
            Thread opener = new Thread(link::open, "tcp-proxy-" + port() + "-open");
            opener.setDaemon(true);
            opener.start();
        }
    }

    /**
     * Waits while the mode is {@code HOLD}; returns the mode found then ({@code DROP} as well once the proxy
     * closed, so nothing more is forwarded).
     */
    private Mode awaitNotHeld() throws InterruptedException {
        synchronized (lock) {
            while (mode == Mode.HOLD && !closed) {
                lock.wait();
            }
            return closed ? Mode.DROP : mode;
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception ignored) {
            // already closed or broken: nothing left to release
        }
    }

    /** One client connection and its connection to the target. */
    private final class Link {
        private final Socket client;
        private volatile Socket upstream;
        /** Set once a byte was thrown away: this stream can never be whole again. */
        private volatile boolean blackHoled;

        private volatile boolean done;
        private int endedPumps;

        Link(Socket client) {
            this.client = client;
        }

        /** Connects to the target unless the mode forbids it, then starts the two pumps. */
        void open() {
            try {
                Mode now = awaitNotHeld();
                if (now == Mode.DROP) {
                    blackHoled = true;
                    pump(client, null, "in");
                    return;
                }
                Socket up = new Socket();
                up.setTcpNoDelay(true);
                up.connect(target, CONNECT_TIMEOUT_MILLIS);
                client.setTcpNoDelay(true);
                upstream = up;
                if (done) {
                    reset();
                    return;
                }
                Thread back = new Thread(() -> pump(up, client, "out"), "tcp-proxy-" + port() + "-out");
                back.setDaemon(true);
                back.start();
                pump(client, up, "in");
            } catch (IOException e) {
                // the target refuses or is gone: the client sees its connection end, as it would at the target
                LOG.debug("proxy {} cannot reach {}: {}", address(), target, e.toString());
                reset();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                reset();
            }
        }

        /** Copies {@code from} to {@code to} ({@code null}: nowhere) by the mode, until either end closes. */
        private void pump(Socket from, Socket to, String direction) {
            byte[] buffer = new byte[CHUNK];
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to == null ? null : to.getOutputStream();
                while (true) {
                    int n = in.read(buffer);
                    if (n < 0) {
                        break;
                    }
                    if (awaitNotHeld() == Mode.DROP || blackHoled) {
                        blackHoled = true;
                        continue;
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (SocketException e) {
                // closed or reset by an end or by reset(): this direction ends
            } catch (IOException e) {
                LOG.debug("proxy {} {}: {}", address(), direction, e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ended(from, to == null ? 1 : 2);
        }

        /**
         * One direction ended because {@code from} closed. Normally the other end is told at once (both sockets
         * close). A black hole tells nobody: only {@code from} is closed, and the other end learns by its own
         * timeouts; the link is gone once both directions ended.
         */
        private void ended(Socket from, int pumps) {
            if (!blackHoled) {
                closeQuietly(client);
                closeQuietly(upstream);
                finish();
                return;
            }
            closeQuietly(from);
            synchronized (this) {
                endedPumps++;
                if (endedPumps < pumps) {
                    return;
                }
            }
            closeQuietly(client);
            closeQuietly(upstream);
            finish();
        }

        /** Closes both ends with a RST. */
        void reset() {
            abort(client);
            abort(upstream);
            finish();
        }

        private void finish() {
            done = true;
            links.remove(this);
        }

        private void abort(Socket socket) {
            if (socket == null) {
                return;
            }
            try {
                socket.setSoLinger(true, 0);
            } catch (SocketException ignored) {
                // already closed
            }
            closeQuietly(socket);
        }
    }
}
