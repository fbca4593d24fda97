package io.etl.testkit.internal;

import io.etl.testkit.BrokerOptions;
import io.etl.testkit.BrokerProxies;
import io.etl.testkit.KafkaTestClusterException;
import io.etl.testkit.TcpProxy;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A KRaft broker+controller in this JVM: storage formatted with Kafka's {@code Formatter}, then a
 * {@link KafkaRaftServer} started on free ports of 127.0.0.1. Needs only Kafka's ordinary artifacts,
 * so it runs in an application (a demo) as well as in a test.
 */
public final class EmbeddedKafkaCluster extends AbstractKafkaTestCluster {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaCluster.class);
    private static final int NODE_ID = 1;
    private static final int ATTEMPTS = 3;

    private final Path workDir;
    private final Path dataDir;
    private final KafkaRaftServer server;
    private final String bootstrap;
    private final ClusterSecurityImpl security;
    private final BrokerProxies proxies;

    private EmbeddedKafkaCluster(
            Path workDir,
            Path dataDir,
            KafkaRaftServer server,
            String bootstrap,
            BrokerOptions options,
            TlsMaterial tls,
            BrokerProxies proxies) {
        this.workDir = workDir;
        this.dataDir = dataDir;
        this.proxies = proxies;
        this.server = server;
        this.bootstrap = bootstrap;
        this.security = tls == null
                ? null
                : new ClusterSecurityImpl(options.security(), this::bootstrapServers, tls, this::admin);
    }

    /**
     * Starts a broker and waits until it answers.
     *
     * @param options broker options
     * @return the running broker
     */
    public static EmbeddedKafkaCluster start(BrokerOptions options) {
        if (options.kerberos() != null) {
            // the broker would share this JVM's Kerberos configuration and login state with the test's clients
            throw new IllegalArgumentException(
                    "a Kerberos listener needs a forked broker (KafkaTestCluster.forkedSingle)");
        }
        KafkaLogging.configure();
        if (options.clientPort() != 0) {
            // a fixed port that is taken stays taken: say so at once instead of retrying
            Resources.requireFree(options.clientPort());
        }
        RuntimeException last = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                return tryStart(options);
            } catch (KafkaTestClusterException e) {
                throw e;
            } catch (RuntimeException e) {
                // most likely a port taken between choosing it and binding it: choose again
                last = e;
                LOG.warn(
                        "embedded Kafka broker failed to start (attempt {} of {}): {}",
                        attempt,
                        ATTEMPTS,
                        e.toString());
            }
        }
        throw new KafkaTestClusterException("cannot start an embedded Kafka broker", last);
    }

    private static EmbeddedKafkaCluster tryStart(BrokerOptions options) {
        long started = System.nanoTime();
        Path workDir = Resources.createTempDirectory("embedded");
        KafkaRaftServer server = null;
        EmbeddedKafkaCluster result = null;
        Map<Integer, TcpProxy> proxies = new LinkedHashMap<>();
        try {
            List<Integer> ports = Resources.freePorts(4);
            int clientPort = options.clientPort() != 0 ? options.clientPort() : ports.get(0);
            int proxyPort = ForkedKafkaClusterImpl.proxyFor(options, NODE_ID, ports.get(3), proxies);
            Path dataDir = options.dataDirectory() != null
                    ? options.dataDirectory().toAbsolutePath()
                    : workDir.resolve("data");
            TlsMaterial tls = options.security() == null ? null : TlsMaterial.create(workDir.resolve("tls"));
            NodeConfig node = new NodeConfig(
                    NODE_ID,
                    NodeConfig.Role.COMBINED,
                    clientPort,
                    ports.get(1),
                    ports.get(2),
                    dataDir,
                    NODE_ID + "@" + NodeConfig.HOST + ":" + ports.get(2),
                    1,
                    options,
                    tls,
                    false,
                    NodeConfig.NO_PORT,
                    ports.get(3),
                    proxyPort);
            if (node.isFormatted()) {
                LOG.info("embedded Kafka broker reuses the data in {}", dataDir);
            } else {
                node.format(Uuid.randomUuid().toString());
            }
            server = new KafkaRaftServer(new KafkaConfig(node.properties(), false), Time.SYSTEM);
            server.startup();
            String bootstrap = NodeConfig.HOST + ":" + clientPort;
            result = new EmbeddedKafkaCluster(
                    workDir,
                    dataDir,
                    server,
                    bootstrap,
                    options,
                    tls,
                    proxies.isEmpty() ? null : new BrokerProxies(proxies));
            result.awaitBrokers(1, options.startupTimeout());
            LOG.info(
                    "embedded Kafka broker ready at {} in {} ms", bootstrap, (System.nanoTime() - started) / 1_000_000);
            return result;
        } catch (RuntimeException e) {
            if (result != null) {
                result.close();
            } else {
                if (server != null) {
                    shutdown(server);
                }
                proxies.values().forEach(TcpProxy::close);
                Resources.deleteRecursively(workDir);
            }
            throw e;
        }
    }

    @Override
    public Kind kind() {
        return Kind.EMBEDDED;
    }

    @Override
    public String bootstrapServers() {
        return bootstrap;
    }

    @Override
    protected Optional<ClusterSecurityImpl> securityImpl() {
        return Optional.ofNullable(security);
    }

    @Override
    public Optional<BrokerProxies> proxies() {
        return Optional.ofNullable(proxies);
    }

    /** @return the directory holding this broker's certificates, and its data unless kept elsewhere (deleted on close) */
    public Path workDirectory() {
        return workDir;
    }

    /** @return the directory holding this broker's data: inside {@link #workDirectory()} unless the options kept it */
    public Path dataDirectory() {
        return dataDir;
    }

    @Override
    protected void doClose() {
        try {
            shutdown(server);
        } finally {
            if (proxies != null) {
                proxies.all().forEach(TcpProxy::close);
            }
            Resources.deleteRecursively(workDir);
        }
    }

    private static void shutdown(KafkaRaftServer server) {
        try {
            server.shutdown();
            server.awaitShutdown();
        } catch (RuntimeException e) {
            LOG.warn("embedded Kafka broker did not shut down cleanly", e);
        }
    }

    @Override
    public String toString() {
        return "embedded Kafka at " + bootstrap
                + (security == null ? "" : " (" + security.settings().mode() + ")");
    }
}
