package io.etl.kafka.common.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
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

    /** How {@link #awaitAccepting(String, Duration, Duration)} ended. */
    public enum Waited {
        /** A broker accepted a TCP connection (or no host resolved: the caller reports that). */
        ACCEPTING,
        /** Every address refused TCP connections, round after round, for the refused bound. */
        REFUSED,
        /** The time ran out with none accepting (some did not answer at all: filtered, or a black hole). */
        UNREACHABLE
    }

    /**
     * {@link #awaitAccepting(String, Duration, Duration)} with no bound of its own for refusals.
     *
     * @return true as soon as one accepts a connection (or none resolves); false when the time ran out
     */
    public static boolean awaitAccepting(String bootstrapServers, Duration within) {
        return awaitAccepting(bootstrapServers, within, within) == Waited.ACCEPTING;
    }

    /**
     * Waits, quietly, until one of the listed brokers accepts a TCP connection, trying them all in rounds with a
     * growing pause between rounds. A Kafka client asked to connect to brokers that are down logs a warning at
     * every attempt; this wait lets a start-up check give brokers that are still starting time without that noise,
     * and report unreachable brokers once. Addresses that actively refuse (nothing listens there: a wrong port, a
     * broker that is down) are given {@code refusedWithin}; addresses that do not answer at all, the whole
     * {@code within}.
     *
     * @param within        the bound of the whole wait
     * @param refusedWithin how long every address may go on refusing before the wait gives up, at most
     *                      {@code within}
     * @return {@link Waited#ACCEPTING} as soon as one accepts a connection, and also at once when none of the listed
     *     hosts resolves or none can be parsed (the caller reports that, naming the address); {@link Waited#REFUSED}
     *     once every address refused for {@code refusedWithin}; {@link Waited#UNREACHABLE} when {@code within} ran
     *     out
     */
    public static Waited awaitAccepting(String bootstrapServers, Duration within, Duration refusedWithin) {
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (String server : bootstrapServers.split(",")) {
            InetSocketAddress address = parse(server.trim());
            if (address != null) {
                addresses.add(address);
            }
        }
        long deadline = System.nanoTime() + within.toNanos();
        long refusedNanos = Math.min(within.toNanos(), refusedWithin.toNanos());
        long refusedSince = 0;
        boolean refusing = false;
        Duration pause = FIRST_PAUSE;
        while (true) {
            boolean resolved = false;
            boolean allRefused = true;
            long round = System.nanoTime();
            for (InetSocketAddress address : addresses) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return refusing ? Waited.REFUSED : Waited.UNREACHABLE;
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
                    return Waited.ACCEPTING;
                } catch (ConnectException refused) {
                    // nothing listens there (yet): try the next, then wait for another round
                } catch (IOException | IllegalArgumentException unanswered) {
                    // filtered, no route, or too slow to answer
                    allRefused = false;
                }
            }
            if (!resolved) {
                return Waited.ACCEPTING;
            }
            long now = System.nanoTime();
            if (!allRefused) {
                refusing = false;
            } else if (!refusing) {
                refusing = true;
                refusedSince = round;
            }
            if (refusing && now - refusedSince >= refusedNanos) {
                return Waited.REFUSED;
            }
            long left = deadline - now;
            if (left <= 0) {
                // the whole bound ran out: refusing all along is still a refusal
                return refusing ? Waited.REFUSED : Waited.UNREACHABLE;
            }
            long wait = Math.min(pause.toNanos(), left);
            if (refusing) {
                wait = Math.min(wait, Math.max(0, refusedSince + refusedNanos - now));
            }
            LockSupport.parkNanos(wait);
            if (Thread.currentThread().isInterrupted()) {
                return Waited.UNREACHABLE;
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
