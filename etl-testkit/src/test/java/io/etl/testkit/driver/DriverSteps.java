package io.etl.testkit.driver;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.Callable;
import org.awaitility.core.ConditionTimeoutException;

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

    /**
     * Waits up to {@code wait} for {@code condition} and says whether it came: for a stage that waits on the
     * pipeline thread, where a thrown timeout would fail the record instead of the test.
     */
    static boolean awaitQuietly(Callable<Boolean> condition, Duration wait) {
        try {
            await().atMost(wait).until(condition);
            return true;
        } catch (ConditionTimeoutException e) {
            return false;
        }
    }
}
