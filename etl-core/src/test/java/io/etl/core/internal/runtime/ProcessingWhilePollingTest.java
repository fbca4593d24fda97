package io.etl.core.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.Pipeline;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.record.RecordMeta;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class ProcessingWhilePollingTest {

    private static final int RECORDS = 50;

    @Test
    void theFirstRecordsOfAPollRunThroughTheChainWhileTheSourceIsStillHandingOverTheRest() {
        List<String> seen = new CopyOnWriteArrayList<>();
        OnePollSource source = new OnePollSource(seen);
        List<String> written = new CopyOnWriteArrayList<>();
        FixtureSink<String, String> sink = new FixtureSink<>("out", FixtureSink.passThrough(), context -> batch -> {
            written.addAll(new ArrayList<>(batch.messages()));
            return CompletableFuture.completedFuture(null);
        });

        RunningPipeline running =
                Pipeline.named("eager").from(source).peek(seen::add).to(sink).start(PipelineConfig.defaults());
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> written.size() == RECORDS);
        } finally {
            running.stopAndWait(Duration.ofSeconds(10));
        }

        // before handing over record i, the source saw every earlier record already through the chain
        assertThat(source.seenBeforeEmit).hasSize(RECORDS);
        for (int i = 0; i < RECORDS; i++) {
            assertThat(source.seenBeforeEmit.get(i))
                    .as("records processed before record %d was emitted", i)
                    .isEqualTo(i);
        }
        assertThat(written).containsExactlyElementsOf(source.values());
    }

    /** {@value #RECORDS} records of one partition in one poll, noting how many the chain had seen before each. */
    private static final class OnePollSource extends FixtureSource {
        private final List<String> seen;
        final List<Integer> seenBeforeEmit = new ArrayList<>();

        OnePollSource(List<String> seen) {
            super(metas());
            this.seen = seen;
        }

        private static List<RecordMeta> metas() {
            List<RecordMeta> metas = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++) {
                metas.add(new RecordMeta("in", 0, i, -1L, null, List.of()));
            }
            return metas;
        }

        List<String> values() {
            List<String> values = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++) {
                values.add("v" + i);
            }
            return values;
        }

        @Override
        protected void beforeEmit(int index) {
            seenBeforeEmit.add(seen.size());
        }
    }
}
