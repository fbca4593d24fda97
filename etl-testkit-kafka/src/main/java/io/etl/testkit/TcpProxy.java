package io.etl.testkit;

import io.etl.testkit.internal.TcpProxyImpl;
import java.net.InetSocketAddress;

/**
 * A TCP proxy on a free port of 127.0.0.1 that forwards every connection to one target and can cut the
 * network between the two ends without root: hold the traffic, black-hole it, or reset every connection.
 *
 * <pre>{@code
 * try (TcpProxy proxy = TcpProxy.start("127.0.0.1", brokerPort)) {
 *     // clients connect to proxy.address()
 *     proxy.drop();                 // a black hole: nothing arrives, nobody is told
 *     ...
 *     proxy.reset();                // every open connection ends with a TCP RST
 *     proxy.pass();                 // new connections work again
 * }
 * }</pre>
 *
 * <p>For a Kafka cluster a proxy in front of the bootstrap address is not enough, since clients learn every
 * broker's address from the metadata: start the cluster with {@link BrokerOptions.Builder#proxied()} and use
 * {@link KafkaTestCluster#proxies()}, one proxy per broker that the brokers themselves advertise.
 *
 * <p>The modes act on what is sent after the change; a connection that sends nothing meanwhile is not
 * touched, as on a real network:
 * <ul>
 *   <li>{@link Mode#PASS}: bytes are forwarded both ways (the start).</li>
 *   <li>{@link Mode#HOLD}: nothing is forwarded and nothing is lost; senders fill their socket buffers and
 *       wait. Back in {@code PASS}, everything held arrives, in order, as after a network stall that TCP
 *       retransmission bridged. New connections wait before they reach the target.</li>
 *   <li>{@link Mode#DROP}: a black hole. Bytes are read and thrown away, and a connection that lost bytes
 *       stays silent for good (its stream can never be whole again) until one end closes it or
 *       {@link #reset()}; no end is told. New connections are accepted and black-holed too.</li>
 * </ul>
 */
public interface TcpProxy extends AutoCloseable {

    /** What the proxy does with the bytes it receives. */
    enum Mode {
        /** Forward them. */
        PASS,
        /** Keep them, and forward them once the mode is {@code PASS} again. */
        HOLD,
        /** Throw them away; the connection that carried them stays silent. */
        DROP
    }

    /**
     * Starts a proxy on a free port of 127.0.0.1 that forwards to {@code host:port}.
     *
     * @param host the target's host
     * @param port the target's port
     * @return a started proxy in {@link Mode#PASS}
     */
    static TcpProxy start(String host, int port) {
        return start(new InetSocketAddress(host, port));
    }

    /**
     * Starts a proxy on a free port of 127.0.0.1 that forwards to {@code target}.
     *
     * @param target where connections go
     * @return a started proxy in {@link Mode#PASS}
     */
    static TcpProxy start(InetSocketAddress target) {
        return TcpProxyImpl.start(target);
    }

    /** @return the port clients connect to */
    int port();

    /** @return {@code 127.0.0.1:<port>}, the address clients connect to */
    String address();

    /** @return where connections go */
    InetSocketAddress target();

    /** @return the current mode */
    Mode mode();

    /** Forwards again; bytes held meanwhile are delivered first. */
    void pass();

    /** Stops forwarding without losing anything; see {@link Mode#HOLD}. */
    void hold();

    /** Black-holes the traffic; see {@link Mode#DROP}. */
    void drop();

    /**
     * Ends every open connection with a TCP RST, at both ends, whatever the mode; the mode stays.
     *
     * @return how many connections were reset
     */
    int reset();

    /** @return the connections open through the proxy now */
    int openConnections();

    /** Stops accepting and closes every connection (with a RST). Idempotent. */
    @Override
    void close();
}
