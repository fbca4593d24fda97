package io.etl.core.internal.chain;

/** Something another thread asks the pipeline thread to do for an asynchronous stage: continue a call, start one. */
interface AsyncEvent {

    /** Runs on the pipeline thread, between two records. */
    void handle();
}
