package io.etl.examples;

import io.etl.core.PipelineResult;
import java.io.PrintStream;
import java.util.Locale;

/** The lines a demonstration run prints about how its pipeline ended. */
public final class PipelineReport {

    private PipelineReport() {}

    /** How {@code result}'s pipeline ended, why it failed, and the batches it abandoned at the drain deadline. */
    public static void print(PipelineResult result, PrintStream err) {
        err.printf(
                Locale.ROOT,
                "pipeline %s: %s after %,d records in %,d ms%n",
                result.pipeline(),
                result.status().name().toLowerCase(Locale.ROOT),
                result.recordsIn(),
                result.elapsed().toMillis());
        result.failureCause().ifPresent(f -> err.println("  cause: " + f.getMessage()));
        if (result.abandonedBatches() > 0) {
            err.printf(
                    "  %d batch(es) abandoned at the drain deadline; they replay on the next start%n",
                    result.abandonedBatches());
        }
    }
}
