package io.etl.runtime.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;

/**
 * The JVM's and the process's meters (class loading, memory, GC, threads, CPU, uptime, file descriptors), bound
 * to a registry on the first {@link #bindTo} only: binding loads the management beans and their listeners, work
 * that a start should not wait for when nothing reads the meters yet. {@link #close} removes the GC listeners.
 */
public final class JvmMeters implements AutoCloseable {

    private JvmGcMetrics gc;

    /** Binds every JVM meter to {@code registry} unless an earlier call did; thread-safe. */
    public synchronized void bindTo(MeterRegistry registry) {
        if (gc != null) {
            return;
        }
        gc = new JvmGcMetrics();
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
    }

    /** Whether {@link #bindTo} has run. */
    public synchronized boolean bound() {
        return gc != null;
    }

    @Override
    public synchronized void close() {
        if (gc != null) {
            gc.close();
        }
    }
}
