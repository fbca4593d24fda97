package io.etl.kafka.common.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;

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
