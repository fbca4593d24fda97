package io.etl.core.internal.chain;

import java.lang.reflect.Method;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where the blocking calls of a {@code mapConcurrent} stage run: a virtual thread per call on a JDK that has them
 * (21 and later; found by reflection, since the code is compiled for 17), else a pool of as many platform threads as
 * the stage's concurrency, which bounds the calls in flight either way.
 */
final class ConcurrentExecutors {

    private ConcurrentExecutors() {}

    /** An executor for the stage named {@code name} with {@code concurrency} calls in flight at most. */
    static ExecutorService create(String name, int concurrency) {
        ExecutorService virtual = virtualThreads(name);
        return virtual != null ? virtual : platformThreads(name, concurrency);
    }

    /** Whether {@link #create} gives virtual threads on this JDK. */
    static boolean virtualThreadsAvailable() {
        try {
            Thread.class.getMethod("ofVirtual");
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** {@code Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name(name + "-", 0).factory())}, or null. */
    private static ExecutorService virtualThreads(String name) {
        if (!virtualThreadsAvailable()) {
            return null;
        }
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            Class<?> builderType = Class.forName("java.lang.Thread$Builder");
            builder = builderType.getMethod("name", String.class, long.class).invoke(builder, name + "-", 0L);
            ThreadFactory factory =
                    (ThreadFactory) builderType.getMethod("factory").invoke(builder);
            Method perTask = Executors.class.getMethod("newThreadPerTaskExecutor", ThreadFactory.class);
            return (ExecutorService) perTask.invoke(null, factory);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    static ExecutorService platformThreads(String name, int concurrency) {
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(
                concurrency, concurrency, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, name + "-" + n.getAndIncrement());
                    t.setDaemon(true);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }
}
