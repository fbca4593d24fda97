package io.etl.testkit;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;

/**
 * Broker JVMs this JVM started, for fault tests: kill one with SIGKILL, stop it with SIGTERM, freeze
 * it with SIGSTOP, and restart it on the same log directory and port.
 *
 * <pre>{@code
 * try (ForkedKafkaCluster kafka = KafkaTestCluster.forkedCluster(3,
 *         BrokerOptions.builder().brokerProperty("min.insync.replicas", "2").build())) {
 *     kafka.createTopic("t", 3, 3, Map.of());
 *     kafka.kill9(2);                  // writes with acks=all still succeed
 *     kafka.restart(2);                // back on its old data, ready in seconds
 * }
 * }</pre>
 *
 * <p>Node ids: a single node ({@link KafkaTestCluster#forkedSingle()}) is {@value #SINGLE_NODE_ID}; in
 * a cluster the controller is {@value #CONTROLLER_NODE_ID} and the brokers are 1..n. Each node writes
 * its output to {@link #logFile(int)}. The children run with {@code -Xmx384m -XX:+UseSerialGC
 * -XX:TieredStopAtLevel=1} unless {@link BrokerOptions#jvmOptions()} names other flags, and halt on their own
 * when this JVM dies.
 */
public interface ForkedKafkaCluster extends KafkaTestCluster {

    /** Node id of the combined broker+controller of {@link KafkaTestCluster#forkedSingle()}. */
    int SINGLE_NODE_ID = 1;
    /** Node id of the controller of {@link KafkaTestCluster#forkedCluster(int)}. */
    int CONTROLLER_NODE_ID = 0;

    /** @return ids of the nodes that serve clients, ascending */
    List<Integer> brokerIds();

    /** @return ids of every node, controller included, ascending */
    List<Integer> nodeIds();

    /**
     * Sends SIGKILL and waits for the process to exit.
     *
     * @param nodeId node id
     */
    void kill9(int nodeId);

    /**
     * Sends SIGTERM and waits (bounded) for a clean shutdown; SIGKILL after the timeout.
     *
     * @param nodeId node id
     */
    void stop(int nodeId);

    /**
     * Sends SIGSTOP: the process keeps its sockets open but answers nothing.
     *
     * @param nodeId node id
     */
    void pause(int nodeId);

    /**
     * Sends SIGCONT to a paused node.
     *
     * @param nodeId node id
     */
    void resume(int nodeId);

    /**
     * Starts a stopped or killed node again on the same log directory and ports and waits until it is
     * back in the cluster. A running node is killed first.
     *
     * @param nodeId node id
     */
    void restart(int nodeId);

    /**
     * Starts several stopped or killed nodes again together, as {@link #restart(int)} does one: their JVMs start at
     * once, and this returns when every one of them is back in the cluster. Running nodes among them are killed
     * first.
     *
     * @param nodeIds node ids
     */
    void restart(Collection<Integer> nodeIds);

    /**
     * @param nodeId node id
     * @return whether the node's process is running (a paused process counts as running)
     */
    boolean isAlive(int nodeId);

    /**
     * @param nodeId node id
     * @return the OS process id of the node's current process
     * @throws IllegalStateException when the node is not running
     */
    long pid(int nodeId);

    /**
     * @param nodeId node id
     * @return the file the node's stdout and stderr go to
     */
    Path logFile(int nodeId);

    /**
     * @return the bootstrap servers of the {@code SASL_PLAINTEXT}/{@code GSSAPI} listener
     *         ({@code localhost:<port>,...})
     * @throws IllegalStateException when the brokers were started without {@link BrokerOptions.Builder#kerberos}
     */
    String kerberosBootstrapServers();
}
