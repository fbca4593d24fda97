package io.etl.testkit.internal;

import io.etl.testkit.BrokerOptions;
import io.etl.testkit.BrokerProxies;
import io.etl.testkit.ForkedKafkaCluster;
import io.etl.testkit.KafkaTestClusterException;
import io.etl.testkit.KerberosListener;
import io.etl.testkit.TcpProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Broker JVMs started from this JVM's classpath with {@link ForkedBrokerMain}: either one combined
 * broker+controller, or one controller plus n brokers. Storage is formatted in this JVM first.
 */
public final class ForkedKafkaClusterImpl extends AbstractKafkaTestCluster implements ForkedKafkaCluster {

    /** System property: directory for the nodes' log files (default {@code target/etl-testkit-logs}). */
    public static final String LOG_DIR_PROPERTY = "etl.test.kafka.logdir";

    static final List<String> JVM_OPTIONS =
            List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k", "-Djava.awt.headless=true");
    private static final Logger LOG = LoggerFactory.getLogger(ForkedKafkaClusterImpl.class);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private final Path workDir;
    private final BrokerOptions options;
    private final Map<Integer, Node> nodes;
    private final String bootstrap;
    private final ClusterSecurityImpl security;
    private final BrokerProxies proxies;

    /** One node: its config, files and current process. */
    private static final class Node {
        final NodeConfig config;
        final Path propertiesFile;
        final Path logFile;
        volatile Process process;

        Node(NodeConfig config, Path propertiesFile, Path logFile) {
            this.config = config;
            this.propertiesFile = propertiesFile;
            this.logFile = logFile;
        }
    }

    private ForkedKafkaClusterImpl(
            Path workDir, BrokerOptions options, Map<Integer, Node> nodes, TlsMaterial tls, BrokerProxies proxies) {
        this.workDir = workDir;
        this.proxies = proxies;
        this.options = options;
        this.nodes = nodes;
        this.bootstrap = nodes.values().stream()
                .filter(n -> n.config.role().servesClients())
                .map(n -> NodeConfig.HOST + ":" + n.config.clientPort())
                .collect(Collectors.joining(","));
        this.security = tls == null
                ? null
                : new ClusterSecurityImpl(options.security(), this::bootstrapServers, tls, this::admin);
    }

    /**
     * @param options broker options
     * @return a started combined broker+controller JVM
     */
    public static ForkedKafkaCluster startSingle(BrokerOptions options) {
        return start(0, options);
    }

    /**
     * @param brokers number of broker JVMs besides the controller JVM
     * @param options broker options
     * @return a started cluster
     */
    public static ForkedKafkaCluster startCluster(int brokers, BrokerOptions options) {
        if (brokers < 1) {
            throw new IllegalArgumentException("brokers must be at least 1, was " + brokers);
        }
        return start(brokers, options);
    }

    private static ForkedKafkaClusterImpl start(int brokers, BrokerOptions options) {
        if (options.clientPort() != 0 || options.dataDirectory() != null) {
            throw new IllegalArgumentException("a fixed client port and a kept data directory are options of the"
                    + " embedded broker (KafkaTestCluster.embedded); forked brokers use free ports and temporary"
                    + " storage");
        }
        KafkaLogging.configure();
        long started = System.nanoTime();
        Path workDir = Resources.createTempDirectory(brokers == 0 ? "forked" : "forked" + brokers);
        ForkedKafkaClusterImpl cluster = null;
        Map<Integer, TcpProxy> proxies = new LinkedHashMap<>();
        try {
            Path logDir = logDirectory(workDir);
            TlsMaterial tls = options.security() == null ? null : TlsMaterial.create(workDir.resolve("tls"));
            Map<Integer, Node> nodes = new LinkedHashMap<>();
            if (brokers == 0) {
                List<Integer> ports = Resources.freePorts(5);
                int proxyPort = proxyFor(options, SINGLE_NODE_ID, ports.get(4), proxies);
                String voters = SINGLE_NODE_ID + "@" + NodeConfig.HOST + ":" + ports.get(2);
                nodes.put(
                        SINGLE_NODE_ID,
                        node(
                                workDir,
                                logDir,
                                new NodeConfig(
                                        SINGLE_NODE_ID,
                                        NodeConfig.Role.COMBINED,
                                        ports.get(0),
                                        ports.get(1),
                                        ports.get(2),
                                        workDir.resolve("node-" + SINGLE_NODE_ID),
                                        voters,
                                        1,
                                        options,
                                        tls,
                                        true,
                                        ports.get(3),
                                        ports.get(4),
                                        proxyPort)));
            } else {
                List<Integer> ports = Resources.freePorts(1 + 4 * brokers);
                int controllerPort = ports.get(0);
                String voters = CONTROLLER_NODE_ID + "@" + NodeConfig.HOST + ":" + controllerPort;
                nodes.put(
                        CONTROLLER_NODE_ID,
                        node(
                                workDir,
                                logDir,
                                new NodeConfig(
                                        CONTROLLER_NODE_ID,
                                        NodeConfig.Role.CONTROLLER,
                                        NodeConfig.NO_PORT,
                                        NodeConfig.NO_PORT,
                                        controllerPort,
                                        workDir.resolve("node-" + CONTROLLER_NODE_ID),
                                        voters,
                                        brokers,
                                        options,
                                        tls,
                                        true,
                                        NodeConfig.NO_PORT)));
                for (int id = 1; id <= brokers; id++) {
                    int proxiedPort = ports.get(3 * brokers + id);
                    int proxyPort = proxyFor(options, id, proxiedPort, proxies);
                    nodes.put(
                            id,
                            node(
                                    workDir,
                                    logDir,
                                    new NodeConfig(
                                            id,
                                            NodeConfig.Role.BROKER,
                                            ports.get(2 * id - 1),
                                            ports.get(2 * id),
                                            controllerPort,
                                            workDir.resolve("node-" + id),
                                            voters,
                                            brokers,
                                            options,
                                            tls,
                                            true,
                                            ports.get(2 * brokers + id),
                                            proxiedPort,
                                            proxyPort)));
                }
            }
            String clusterId = Uuid.randomUuid().toString();
            for (Node node : nodes.values()) {
                node.config.format(clusterId);
                node.config.writeTo(node.propertiesFile);
            }
            cluster = new ForkedKafkaClusterImpl(
                    workDir, options, nodes, tls, proxies.isEmpty() ? null : new BrokerProxies(proxies));
            for (Node node : nodes.values()) {
                cluster.launch(node);
            }
            cluster.awaitBrokers(cluster.brokerIds(), cluster.brokerIds().size(), options.startupTimeout());
            LOG.info(
                    "forked Kafka ready at {} ({} JVMs) in {} ms; logs in {}",
                    cluster.bootstrap,
                    nodes.size(),
                    (System.nanoTime() - started) / 1_000_000,
                    logDir);
            return cluster;
        } catch (RuntimeException e) {
            if (cluster != null) {
                String logs = cluster.nodes.values().stream()
                        .map(n -> n.logFile.toString())
                        .collect(Collectors.joining(", "));
                cluster.close();
                throw new KafkaTestClusterException("forked Kafka did not start; see " + logs, e);
            }
            proxies.values().forEach(TcpProxy::close);
            Resources.deleteRecursively(workDir);
            throw e;
        }
    }

    /**
     * With {@link BrokerOptions#proxied()}, starts the proxy in front of node {@code nodeId}'s proxied listener on
     * {@code proxiedPort} and returns the port the listener must advertise; otherwise {@link NodeConfig#NO_PORT}.
     */
    static int proxyFor(BrokerOptions options, int nodeId, int proxiedPort, Map<Integer, TcpProxy> proxies) {
        if (!options.proxied()) {
            return NodeConfig.NO_PORT;
        }
        TcpProxy proxy = TcpProxy.start(NodeConfig.HOST, proxiedPort);
        proxies.put(nodeId, proxy);
        return proxy.port();
    }

    private static Node node(Path workDir, Path logDir, NodeConfig config) {
        return new Node(
                config,
                workDir.resolve("node-" + config.nodeId() + ".properties"),
                logDir.resolve("node-" + config.nodeId() + ".log"));
    }

    private static Path logDirectory(Path workDir) {
        String configured = System.getProperty(LOG_DIR_PROPERTY);
        Path base;
        if (configured != null && !configured.isBlank()) {
            base = Paths.get(configured);
        } else if (Files.isDirectory(Paths.get("target"))) {
            base = Paths.get("target", "etl-testkit-logs");
        } else {
            return workDir;
        }
        try {
            Path dir = base.resolve(workDir.getFileName().toString()).toAbsolutePath();
            Files.createDirectories(dir);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the log directory under " + base, e);
        }
    }

    private static String childClasspath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp == null || cp.isBlank() ? System.getProperty("java.class.path") : cp;
    }

    private void launch(Node node) {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(options.jvmOptions().isEmpty() ? JVM_OPTIONS : options.jvmOptions());
        command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=info");
        command.add("-Dorg.slf4j.simpleLogger.showDateTime=true");
        String level = System.getProperty(KafkaLogging.LEVEL_PROPERTY);
        if (level != null) {
            command.add("-Dorg.slf4j.simpleLogger.log.kafka=" + level.toLowerCase());
            command.add("-Dorg.slf4j.simpleLogger.log.org.apache.kafka=" + level.toLowerCase());
        }
        if (options.kerberos() != null) {
            // the JDK reads its Kerberos configuration from this JVM-wide property
            command.add("-Djava.security.krb5.conf="
                    + options.kerberos().krb5Config().toAbsolutePath());
        }
        command.add("-cp");
        command.add(childClasspath());
        command.add(ForkedBrokerMain.class.getName());
        command.add(node.propertiesFile.toString());
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(node.logFile.toFile()));
        // stdin stays a pipe this JVM keeps open: the child halts when it reaches EOF
        try {
            node.process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the JVM of node " + node.config.nodeId(), e);
        }
        LOG.debug("node {} started as pid {}", node.config.nodeId(), node.process.pid());
    }

    private Node node(int nodeId) {
        Node node = nodes.get(nodeId);
        if (node == null) {
            throw new IllegalArgumentException("no node " + nodeId + "; nodes are " + nodeIds());
        }
        return node;
    }

    @Override
    public Kind kind() {
        return Kind.FORKED;
    }

    @Override
    public String bootstrapServers() {
        return bootstrap;
    }

    @Override
    public String kerberosBootstrapServers() {
        if (options.kerberos() == null) {
            throw new IllegalStateException(
                    "the brokers have no Kerberos listener: build BrokerOptions with kerberos(..)");
        }
        return nodes.values().stream()
                .filter(n -> n.config.role().servesClients())
                .map(n -> KerberosListener.ADVERTISED_HOST + ":" + n.config.kerberosPort())
                .collect(Collectors.joining(","));
    }

    @Override
    protected Optional<ClusterSecurityImpl> securityImpl() {
        return Optional.ofNullable(security);
    }

    @Override
    public Optional<BrokerProxies> proxies() {
        return Optional.ofNullable(proxies);
    }

    @Override
    public List<Integer> brokerIds() {
        return nodes.values().stream()
                .filter(n -> n.config.role().servesClients())
                .map(n -> n.config.nodeId())
                .sorted()
                .collect(Collectors.toList());
    }

    @Override
    public List<Integer> nodeIds() {
        return nodes.keySet().stream().sorted().collect(Collectors.toList());
    }

    @Override
    public void kill9(int nodeId) {
        Process p = node(nodeId).process;
        if (p != null && p.isAlive()) {
            p.destroyForcibly(); // SIGKILL
            waitFor(p, STOP_TIMEOUT, nodeId);
        }
    }

    @Override
    public void stop(int nodeId) {
        Process p = node(nodeId).process;
        if (p == null || !p.isAlive()) {
            return;
        }
        // the kit's own admin client is closed while the broker still answers: left open, it would try to reconnect
        // to the stopped node and log a refused connection at some later moment (the next use opens a new one)
        resetAdmin();
        signal(p, "CONT"); // a paused JVM cannot handle SIGTERM
        // not Process.destroy(): it also closes the child's stdin, which the watchdog takes for a dead parent
        signal(p, "TERM");
        try {
            if (!p.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn(
                        "node {} did not stop within {} s after SIGTERM; sending SIGKILL",
                        nodeId,
                        STOP_TIMEOUT.toSeconds());
                kill9(nodeId);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaTestClusterException("interrupted while stopping node " + nodeId, e);
        }
    }

    @Override
    public void pause(int nodeId) {
        signal(running(nodeId), "STOP");
    }

    @Override
    public void resume(int nodeId) {
        signal(running(nodeId), "CONT");
    }

    @Override
    public void restart(int nodeId) {
        restart(List.of(nodeId));
    }

    @Override
    public void restart(Collection<Integer> nodeIds) {
        List<Node> restarted = nodeIds.stream().distinct().map(this::node).toList();
        for (Node node : restarted) {
            if (node.process != null && node.process.isAlive()) {
                kill9(node.config.nodeId());
            }
        }
        long started = System.nanoTime();
        resetAdmin();
        restarted.forEach(this::launch);
        List<Integer> brokers = restarted.stream()
                .filter(n -> n.config.role().servesClients())
                .map(n -> n.config.nodeId())
                .toList();
        if (!brokers.isEmpty()) {
            awaitBrokers(brokers, brokers.size(), options.startupTimeout());
        }
        for (Node node : restarted) {
            if (!node.config.role().servesClients()) {
                Waits.until("controller " + node.config.nodeId() + " to listen", options.startupTimeout(), () -> {
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress(NodeConfig.HOST, node.config.controllerPort()), 500);
                        return true;
                    }
                });
            }
        }
        List<Integer> ids = restarted.stream().map(n -> n.config.nodeId()).toList();
        LOG.info(
                "{} restarted in {} ms",
                ids.size() == 1 ? "node " + ids.get(0) : "nodes " + ids,
                (System.nanoTime() - started) / 1_000_000);
    }

    @Override
    public boolean isAlive(int nodeId) {
        Process p = node(nodeId).process;
        return p != null && p.isAlive();
    }

    @Override
    public long pid(int nodeId) {
        return running(nodeId).pid();
    }

    @Override
    public Path logFile(int nodeId) {
        return node(nodeId).logFile;
    }

    /** @return the directory holding the nodes' data (deleted on close) */
    public Path workDirectory() {
        return workDir;
    }

    private Process running(int nodeId) {
        Process p = node(nodeId).process;
        if (p == null || !p.isAlive()) {
            throw new IllegalStateException("node " + nodeId + " is not running");
        }
        return p;
    }

    private static void signal(Process p, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid()))
                    .redirectErrorStream(true)
                    .start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new KafkaTestClusterException("kill -" + signal + " " + p.pid() + " failed: "
                        + new String(kill.getInputStream().readAllBytes()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill -" + signal, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaTestClusterException("interrupted while sending SIG" + signal, e);
        }
    }

    private static void waitFor(Process p, Duration timeout, int nodeId) {
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new KafkaTestClusterException("node " + nodeId + " (pid " + p.pid() + ") did not exit");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaTestClusterException("interrupted while waiting for node " + nodeId, e);
        }
    }

    @Override
    protected void doClose() {
        // the data is deleted anyway: SIGKILL everything, no graceful shutdown to wait for
        for (Node node : nodes.values()) {
            Process p = node.process;
            if (p != null && p.isAlive()) {
                p.destroyForcibly();
            }
        }
        for (Node node : nodes.values()) {
            Process p = node.process;
            if (p != null) {
                try {
                    if (!p.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                        LOG.warn("node {} (pid {}) did not exit after SIGKILL", node.config.nodeId(), p.pid());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                try {
                    p.getOutputStream().close();
                } catch (IOException ignored) {
                    // the child is gone
                }
            }
        }
        if (proxies != null) {
            proxies.all().forEach(TcpProxy::close);
        }
        Resources.deleteRecursively(workDir);
    }

    @Override
    public String toString() {
        return "forked Kafka at " + bootstrap + " (nodes " + nodeIds() + ")";
    }
}
