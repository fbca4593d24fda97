package io.etl.testkit.driver;

import java.time.Duration;

/** Steps that several driver tests take alike. */
final class DriverSteps {

    private DriverSteps() {}

    /**
     * Sends {@code "a"} and waits until it is committed, then makes the sink fail its next batch fatally and
     * sends {@code "b"}: the partition has one committed record and one behind a fatally failed batch.
     */
    static void commitOneRecordThenFailTheNextBatchFatally(
            PipelineTestDriver driver, TestSource<String> in, TestSink<String> out, Duration wait) {
        in.send("k", "a");
        driver.awaitCommitted(wait);
        out.failFatally(1);
        in.send("k", "b");
    }
}
