package io.etl.testkit;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The {@link TcpProxy} in front of each broker of a cluster started with {@link BrokerOptions.Builder#proxied()}:
 * the brokers advertise the proxies' addresses on a listener of their own, so a client bootstrapped through
 * {@link #bootstrapServers()} reaches every broker only through its proxy.
 *
 * <pre>{@code
 * try (ForkedKafkaCluster kafka = KafkaTestCluster.forkedCluster(3, BrokerOptions.builder().proxied().build())) {
 *     BrokerProxies proxies = kafka.proxies().orElseThrow();
 *     String brokersForThePipeline = proxies.bootstrapServers();
 *     proxies.drop();        // a black hole between those clients and every broker
 *     proxies.reset();       // then every connection through them ends with a RST
 *     proxies.pass();
 * }
 * }</pre>
 *
 * <p>The cluster starts the proxies before its brokers and closes them with itself.
 *
 * @param byBroker the proxy of each broker, by broker id
 */
public record BrokerProxies(Map<Integer, TcpProxy> byBroker) {

    /** Copies the map, ordered by broker id. */
    public BrokerProxies {
        byBroker = Collections.unmodifiableMap(new TreeMap<>(byBroker));
    }

    /** @return the proxies' addresses, {@code 127.0.0.1:<port>,...}, in broker id order */
    public String bootstrapServers() {
        return byBroker.values().stream().map(TcpProxy::address).collect(Collectors.joining(","));
    }

    /**
     * @param brokerId a broker id
     * @return the proxy in front of that broker
     * @throws IllegalArgumentException for an id without a proxy
     */
    public TcpProxy of(int brokerId) {
        TcpProxy proxy = byBroker.get(brokerId);
        if (proxy == null) {
            throw new IllegalArgumentException(
                    "no proxy for broker " + brokerId + "; brokers are " + byBroker.keySet());
        }
        return proxy;
    }

    /** @return every proxy, in broker id order */
    public List<TcpProxy> all() {
        return List.copyOf(byBroker.values());
    }

    /** {@link TcpProxy#pass()} on every proxy. */
    public void pass() {
        byBroker.values().forEach(TcpProxy::pass);
    }

    /** {@link TcpProxy#hold()} on every proxy. */
    public void hold() {
        byBroker.values().forEach(TcpProxy::hold);
    }

    /** {@link TcpProxy#drop()} on every proxy. */
    public void drop() {
        byBroker.values().forEach(TcpProxy::drop);
    }

    /**
     * {@link TcpProxy#reset()} on every proxy.
     *
     * @return how many connections were reset in all
     */
    public int reset() {
        return byBroker.values().stream().mapToInt(TcpProxy::reset).sum();
    }
}
