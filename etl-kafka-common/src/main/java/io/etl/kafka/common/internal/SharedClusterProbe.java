package io.etl.kafka.common.internal;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One admin client and one {@code describeCluster} per cluster and pipeline run, shared by every connector of
 * that run that checks the same brokers with the same security settings. The first caller starts the probe;
 * callers arriving while it is in flight wait for the same answer, and later ones reuse it (and the connected
 * client, for their topic checks) instead of connecting and authenticating again. Probes of different clusters
 * are independent, so connectors opened concurrently check their clusters in parallel.
 *
 * <p>Leases are counted; when the last one is released the client stays open for {@link #IDLE} (a pipeline
 * opens its connectors one after another) and is then closed. A failed probe is closed at once.
 */
public final class SharedClusterProbe {

    /** How long a probe's client stays open after its last lease, for the connectors opened next. */
    public static final Duration IDLE = Duration.ofSeconds(5);

    private static final Logger LOG = LoggerFactory.getLogger(SharedClusterProbe.class);
    private static final Map<Key, SharedClusterProbe> REGISTRY = new ConcurrentHashMap<>();
    private static final ScheduledThreadPoolExecutor CLOSER = closer();

    private final Key key;
    private final Admin admin;
    private final KafkaFuture<Collection<Node>> nodes;
    private int leases;
    private boolean closed;
    private ScheduledFuture<?> idleClose;

    private SharedClusterProbe(Key key, Properties adminProperties) {
        this.key = key;
        this.admin = Admin.create(adminProperties);
        int ms = timeoutMs(adminProperties);
        this.nodes = admin.describeCluster(new DescribeClusterOptions().timeoutMs(ms))
                .nodes();
        LOG.debug(
                "probing brokers {} once for run {}",
                key.connection().get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG),
                key.runId());
    }

    /**
     * The probe of the cluster {@code adminProperties} point at, within run {@code runId}: started now, or the
     * one in flight or done. Release it when done with it.
     *
     * @param adminProperties admin client properties; {@code client.id} and the timeouts are not part of the
     *                        cluster's identity, {@code default.api.timeout.ms} bounds a probe this call starts
     * @throws org.apache.kafka.common.KafkaException when kafka-clients refuses the properties
     */
    public static SharedClusterProbe lease(String runId, Properties adminProperties) {
        Key key = Key.of(runId, adminProperties);
        while (true) {
            SharedClusterProbe probe = REGISTRY.computeIfAbsent(key, k -> new SharedClusterProbe(k, adminProperties));
            synchronized (probe) {
                if (!probe.closed) {
                    probe.leases++;
                    if (probe.idleClose != null) {
                        probe.idleClose.cancel(false);
                        probe.idleClose = null;
                    }
                    return probe;
                }
            }
            // closed between lookup and lock: look again
        }
    }

    /**
     * The brokers of the cluster, waiting at most {@code timeout} for the probe.
     *
     * @throws ExecutionException with the client's exception when the probe failed
     * @throws TimeoutException   when the probe is still in flight after {@code timeout}
     */
    public Collection<Node> nodes(Duration timeout) throws ExecutionException, TimeoutException, InterruptedException {
        return nodes.get(Math.max(1, timeout.toMillis()), TimeUnit.MILLISECONDS);
    }

    /** The connected admin client, for further requests to the same cluster while the lease is held. */
    public Admin admin() {
        return admin;
    }

    /** Ends this lease; the last one closes the client after {@link #IDLE}, or at once when the probe failed. */
    public void release() {
        synchronized (this) {
            if (leases <= 0 || --leases > 0) {
                return;
            }
            boolean failed = nodes.isCompletedExceptionally();
            idleClose = CLOSER.schedule(this::closeIfIdle, failed ? 0 : IDLE.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Closes now every probe of run {@code runId} that no connector holds, instead of after {@link #IDLE}: called
     * by a connector that closes, since the run is stopping and its brokers may go away with it.
     */
    public static void closeIdle(String runId) {
        if (runId == null) {
            return;
        }
        for (SharedClusterProbe probe : REGISTRY.values()) {
            if (probe.key.runId().equals(runId)) {
                probe.closeIfIdle();
            }
        }
    }

    private void closeIfIdle() {
        synchronized (this) {
            if (leases > 0 || closed) {
                return;
            }
            closed = true;
            REGISTRY.remove(key, this);
            if (idleClose != null) {
                idleClose.cancel(false);
                idleClose = null;
            }
        }
        admin.close(Duration.ofSeconds(1));
    }

    private static int timeoutMs(Properties props) {
        Object value = props.get(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG);
        return value == null ? 60_000 : Integer.parseInt(value.toString());
    }

    private static ScheduledThreadPoolExecutor closer() {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "etl-cluster-probe-closer");
            t.setDaemon(true);
            return t;
        });
        executor.setKeepAliveTime(IDLE.toMillis() * 2, TimeUnit.MILLISECONDS);
        executor.allowCoreThreadTimeOut(true);
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }

    /** A run and the properties that decide which cluster is reached and as whom. */
    private record Key(String runId, Map<String, String> connection) {

        static Key of(String runId, Properties props) {
            return new Key(runId, AdminSettings.clusterIdentity(props));
        }

        @Override
        public String toString() {
            return "Key[" + runId + ", " + connection.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG) + "]";
        }
    }
}
