package io.etl.core.internal.chain;

/** One step of a compiled chain; pushes values to the next step. Pipeline thread only. */
public abstract class Node {

    /** Processes one value of the current record. */
    public abstract void push(Object value);
}
