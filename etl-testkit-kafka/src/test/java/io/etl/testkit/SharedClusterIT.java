package io.etl.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.testkit.internal.EmbeddedKafkaCluster;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.testkit.engine.EngineTestKit;

/** Two unrelated test classes that ask for a shared cluster get the same one. */
class SharedClusterIT {

    private static final String ONLY_FROM_RUNS_BOTH = "run by RunsBoth in an engine of its own";
    private static final AtomicReference<KafkaTestCluster> FIRST = new AtomicReference<>();

    private static void checkSameCluster(KafkaTestCluster kafka) {
        FIRST.compareAndSet(null, kafka);
        assertThat(kafka).isSameAs(FIRST.get());
        assertThat(kafka.kind())
                .isIn(
                        KafkaTestCluster.Kind.EMBEDDED,
                        KafkaTestCluster.Kind.EXTERNAL,
                        KafkaTestCluster.Kind.FORKED,
                        KafkaTestCluster.Kind.TESTCONTAINERS);
    }

    @EmbeddedKafka(shared = true)
    @Disabled(ONLY_FROM_RUNS_BOTH)
    static class FirstUser {
        @Test
        void getsTheSharedCluster(KafkaTestCluster kafka) {
            checkSameCluster(kafka);
            kafka.createTopic("shared-first", 1);
        }
    }

    @EmbeddedKafka(shared = true)
    @Disabled(ONLY_FROM_RUNS_BOTH)
    static class SecondUser {
        @Test
        void getsTheSameSharedCluster(KafkaTestCluster kafka) {
            checkSameCluster(kafka);
        }
    }

    @Nested
    class RunsBoth {
        @Test
        void sharesOneClusterBetweenClasses() {
            FIRST.set(null);
            var results = EngineTestKit.engine("junit-jupiter")
                    .configurationParameter("junit.jupiter.conditions.deactivate", "org.junit.*DisabledCondition")
                    .selectors(
                            DiscoverySelectors.selectClass(FirstUser.class),
                            DiscoverySelectors.selectClass(SecondUser.class))
                    .execute();
            results.testEvents().assertStatistics(stats -> stats.succeeded(2).failed(0));
            // the shared cluster lives until the end of the run (here: of that engine execution)
            if (FIRST.get() instanceof EmbeddedKafkaCluster embedded) {
                assertThat(embedded.workDirectory()).doesNotExist();
            }
        }
    }
}
