package io.etl.testkit.internal;

import io.etl.testkit.KafkaTestClusterException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Temp directories, free ports and the JVM shutdown hook that closes clusters left open, so that no
 * broker process or directory outlives the JVM.
 */
public final class Resources {

    private static final Logger LOG = LoggerFactory.getLogger(Resources.class);
    private static final Set<AutoCloseable> OPEN = ConcurrentHashMap.newKeySet();
    private static final String TEMP_PREFIX =
            "etl-kafka-" + ProcessHandle.current().pid() + "-";

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Resources::closeAll, "etl-testkit-cleanup"));
    }

    private Resources() {}

    /**
     * The prefix of every temp directory this JVM's clusters create under {@code java.io.tmpdir}.
     *
     * @return {@code etl-kafka-<pid>-}
     */
    public static String tempDirectoryPrefix() {
        return TEMP_PREFIX;
    }

    static void register(AutoCloseable resource) {
        OPEN.add(resource);
    }

    static void unregister(AutoCloseable resource) {
        OPEN.remove(resource);
    }

    private static void closeAll() {
        for (AutoCloseable resource : new ArrayList<>(OPEN)) {
            try {
                resource.close();
            } catch (Exception e) {
                LOG.warn("could not close {} at JVM exit", resource, e);
            }
        }
    }

    static Path createTempDirectory(String kind) {
        try {
            return Files.createTempDirectory(TEMP_PREFIX + kind + "-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp directory", e);
        }
    }

    static void deleteRecursively(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException exc) throws IOException {
                    if (exc instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw exc;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            LOG.warn("could not delete {}", root, e);
        }
    }

    /**
     * Checks that {@code port} of 127.0.0.1 can be bound right now.
     *
     * @throws KafkaTestClusterException naming the port when something else listens on it
     */
    static void requireFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
        } catch (IOException e) {
            throw new KafkaTestClusterException(
                    "port " + port + " of " + InetAddress.getLoopbackAddress().getHostAddress()
                            + " is in use (another broker already running?): " + e.getMessage(),
                    e);
        }
    }

    /** @return {@code n} distinct ports free on 127.0.0.1 right now */
    static List<Integer> freePorts(int n) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                socket.setReuseAddress(true);
                sockets.add(socket);
                ports.add(socket.getLocalPort());
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find free ports", e);
        } finally {
            for (ServerSocket s : sockets) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // best effort
                }
            }
        }
    }
}
