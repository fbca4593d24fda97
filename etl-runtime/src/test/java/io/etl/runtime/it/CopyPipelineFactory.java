package io.etl.runtime.it;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.source.KafkaSource;
import io.etl.runtime.PipelineFactory;

/**
 * A user's pipeline as the runtime sees it: copies the source {@code in} to the sink {@code out}, bytes as
 * they are. The ITs pack it into a jar of its own and run it with the runtime jar in a child JVM.
 */
public final class CopyPipelineFactory implements PipelineFactory {

    /** The name {@code --pipeline} selects. */
    public static final String NAME = "copy";

    @Override
    public String name() {
        return NAME;
    }

    /** Environment variable: milliseconds each record takes in the {@code pace} stage (default 0). */
    public static final String PACE_ENV = "COPY_PACE_MS";

    @Override
    public Pipeline create(PipelineConfig config) {
        String pace = System.getenv(PACE_ENV);
        long paceMillis = pace == null || pace.isBlank() ? 0 : Long.parseLong(pace.strip());
        return Pipeline.named("copy")
                .from(KafkaSource.from(config.source("in")).bytes())
                .map("pace", value -> slowly(value, paceMillis))
                .to(KafkaSink.from(config.sink("out")).bytes())
                .build();
    }

    /** A transformation that takes its time, so that a test can watch a pipeline draining. */
    private static byte[] slowly(byte[] value, long millis) {
        if (millis > 0) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return value;
    }
}
