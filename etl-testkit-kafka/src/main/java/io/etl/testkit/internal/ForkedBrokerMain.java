package io.etl.testkit.internal;

import java.io.IOException;
import java.io.InputStream;

/**
 * Main class of a forked broker JVM: starts a watchdog that halts this JVM as soon as the parent (the
 * test JVM) is gone, then runs {@code kafka.Kafka.main(args)}.
 *
 * <p>The parent keeps this process's stdin open and never writes to it; stdin reaching EOF (the parent
 * died, however it died) or the parent process exiting halts the broker at once.
 */
public final class ForkedBrokerMain {

    private ForkedBrokerMain() {}

    /**
     * @param args the arguments of {@code kafka.Kafka}: the path of {@code server.properties}
     * @throws Exception when Kafka fails to start
     */
    public static void main(String[] args) throws Exception {
        Thread stdinWatch = new Thread(
                () -> {
                    try (InputStream in = System.in) {
                        byte[] buffer = new byte[64];
                        while (in.read(buffer) >= 0) {
                            // the parent never writes; keep reading until EOF
                        }
                    } catch (IOException ignored) {
                        // a broken pipe means the parent is gone, too
                    }
                    System.err.println("etl-testkit: parent JVM gone (stdin closed), halting broker");
                    Runtime.getRuntime().halt(3);
                },
                "etl-testkit-parent-stdin-watch");
        stdinWatch.setDaemon(true);
        stdinWatch.start();
        ProcessHandle.current()
                .parent()
                .ifPresent(parent -> parent.onExit().thenRun(() -> {
                    System.err.println("etl-testkit: parent JVM " + parent.pid() + " exited, halting broker");
                    Runtime.getRuntime().halt(3);
                }));
        kafka.Kafka.main(args);
    }
}
