package io.etl.core.internal.runtime;

/**
 * The clock of a run's own timers, in nanoseconds like {@link System#nanoTime()}: when a batch has lingered long
 * enough, when the next commit is due, how long a partition has been stalled. {@link #SYSTEM} in production; a test
 * driver may run ahead of it, so that advancing its clock fires those timers without waiting for them. Only
 * differences of two readings mean anything, and readings never go back.
 */
@FunctionalInterface
public interface EngineTime {

    /** The JVM's own monotonic clock. */
    EngineTime SYSTEM = System::nanoTime;

    /** Now, in nanoseconds of an arbitrary origin. */
    long nanoTime();
}
