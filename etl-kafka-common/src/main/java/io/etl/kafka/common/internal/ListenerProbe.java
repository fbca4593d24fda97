package io.etl.kafka.common.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Asks a listener what it speaks before a client without TLS talks to it. A plaintext Kafka client reads
 * the first bytes of a TLS record as the size of a response (about 350 MB) and its network thread dies of
 * {@code OutOfMemoryError} (KAFKA-4090); this probe sends one plaintext ApiVersions request on a plain
 * socket and looks at the first byte of the answer instead.
 */
public final class ListenerProbe {

    /** What the first listener that accepted a connection answered. */
    public enum Answer {
        /** A TLS record (handshake or alert): not plaintext Kafka. */
        TLS,
        /** A Kafka response. */
        KAFKA,
        /**
         * Connected, but nothing came back within the probe's timeout, or the connection was closed without
         * a word (a broker still starting or stopping may do either, so this proves nothing).
         */
        SILENT,
        /** No listed broker accepted a connection. */
        UNREACHABLE
    }

    /** The ApiVersions v0 request: size 10, api key 18, version 0, correlation id 1, null client id. */
    private static final byte[] API_VERSIONS_V0 = {0, 0, 0, 10, 0, 18, 0, 0, 0, 0, 0, 1, -1, -1};

    private static final int TLS_HANDSHAKE = 0x16;
    private static final int TLS_ALERT = 0x15;

    private ListenerProbe() {}

    /** The answer, and the {@code host:port} that gave it (null when unreachable). */
    public record Result(Answer answer, String address) {}

    /** First pause between two rounds of {@link #awaitAccepting}; it doubles up to {@link #MAX_PAUSE}. */
    private static final Duration FIRST_PAUSE = Duration.ofMillis(100);

    private static final Duration MAX_PAUSE = Duration.ofSeconds(1);
    /** Bound of one connection attempt of {@link #awaitAccepting}. */
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

    /**
     * Waits, quietly, until one of the listed brokers accepts a TCP connection, trying them all in rounds with a
     * growing pause between rounds. A Kafka client asked to connect to brokers that are down logs a warning at
     * every attempt; this wait lets a start-up check give brokers that are still starting the whole check's time
     * without that noise, and report unreachable brokers once.
     *
     * @return true as soon as one accepts a connection, and also at once when none of the listed hosts resolves or
     *     none can be parsed (the client then reports that itself, naming the address); false when the time ran
     *     out with none accepting
     */
    public static boolean awaitAccepting(String bootstrapServers, Duration within) {
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (String server : bootstrapServers.split(",")) {
            InetSocketAddress address = parse(server.trim());
            if (address != null) {
                addresses.add(address);
            }
        }
        long deadline = System.nanoTime() + within.toNanos();
        Duration pause = FIRST_PAUSE;
        while (true) {
            boolean resolved = false;
            for (InetSocketAddress address : addresses) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                InetSocketAddress target = address.isUnresolved()
                        ? new InetSocketAddress(address.getHostString(), address.getPort())
                        : address;
                if (target.isUnresolved()) {
                    continue;
                }
                resolved = true;
                try (Socket socket = new Socket()) {
                    socket.connect(target, (int) Math.max(1, Math.min(CONNECT_TIMEOUT.toMillis(), left / 1_000_000)));
                    return true;
                } catch (IOException | IllegalArgumentException refused) {
                    // down, still starting, or filtered: try the next, then wait for another round
                }
            }
            long left = deadline - System.nanoTime();
            if (!resolved || left <= 0) {
                return !resolved;
            }
            LockSupport.parkNanos(Math.min(pause.toNanos(), left));
            if (Thread.currentThread().isInterrupted()) {
                return false;
            }
            pause = pause.multipliedBy(2).compareTo(MAX_PAUSE) > 0 ? MAX_PAUSE : pause.multipliedBy(2);
        }
    }

    /** {@code host:port} or {@code [v6]:port} as an unresolved address; null when it cannot be parsed. */
    private static InetSocketAddress parse(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (hostPort.isEmpty() || colon <= 0) {
            return null;
        }
        String host = hostPort.substring(0, colon).replace("[", "").replace("]", "");
        try {
            return InetSocketAddress.createUnresolved(host, Integer.parseInt(hostPort.substring(colon + 1)));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Probes the listed brokers in turn until one accepts a connection. */
    public static Result probe(String bootstrapServers, Duration timeout) {
        int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        for (String server : bootstrapServers.split(",")) {
            String hostPort = server.trim();
            int colon = hostPort.lastIndexOf(':');
            if (hostPort.isEmpty() || colon <= 0) {
                continue;
            }
            String host = hostPort.substring(0, colon).replace("[", "").replace("]", "");
            int port;
            try {
                port = Integer.parseInt(hostPort.substring(colon + 1));
            } catch (NumberFormatException e) {
                continue;
            }
            try (Socket socket = new Socket()) {
                try {
                    socket.connect(new InetSocketAddress(host, port), millis);
                } catch (IOException | IllegalArgumentException unreachable) {
                    continue;
                }
                socket.setSoTimeout(millis);
                socket.getOutputStream().write(API_VERSIONS_V0);
                socket.getOutputStream().flush();
                InputStream in = socket.getInputStream();
                int first = in.read();
                if (first < 0) {
                    return new Result(Answer.SILENT, hostPort);
                }
                boolean tls = first == TLS_HANDSHAKE || first == TLS_ALERT;
                return new Result(tls ? Answer.TLS : Answer.KAFKA, hostPort);
            } catch (IOException e) {
                // no answer in time, or the connection was reset
                return new Result(Answer.SILENT, hostPort);
            }
        }
        return new Result(Answer.UNREACHABLE, null);
    }
}
