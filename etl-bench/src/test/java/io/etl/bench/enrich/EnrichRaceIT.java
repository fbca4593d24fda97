package io.etl.bench.enrich;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.examples.enrich.CustomerService;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.http.TestHttpService;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs every contestant of the enrich race on a tiny input so the harness cannot rot: each forked contestant writes
 * an output for every order, commits the input's end and calls the service at least once per order. The race itself
 * is never run by the build. With {@code -Denrich.race.parallel-consumer.kafka-clients=<kafka-clients 3.9.1 jar>}
 * parallel-consumer runs too.
 */
@EmbeddedKafka(shared = true)
class EnrichRaceIT {

    private static final int ORDERS = 300;
    static final String PC_KAFKA_CLIENTS = "enrich.race.parallel-consumer.kafka-clients";

    /**
     * Every contestant but parallel-consumer, which needs a kafka-clients 3.x jar the build does not have: it runs
     * too when the system property {@value #PC_KAFKA_CLIENTS} names one.
     */
    static List<String> contestants() {
        return EnrichRace.CONTESTANTS.stream()
                .filter(c -> !c.equals("parallel-consumer") || System.getProperty(PC_KAFKA_CLIENTS) != null)
                .toList();
    }

    @ParameterizedTest
    @MethodSource("contestants")
    @Timeout(120)
    void everyContestantEnrichesEveryOrderAndCommits(String contestant, KafkaTestCluster kafka) throws Exception {
        EnrichRace.Options options = EnrichRace.Options.parse(
                "--records", Integer.toString(ORDERS),
                "--partitions", "3",
                "--keys", "60",
                "--latency-ms", "5",
                "--concurrency", "16",
                "--only", contestant,
                "--parallel-consumer-kafka-clients", System.getProperty(PC_KAFKA_CLIENTS, "none"));
        try (TestHttpService service = CustomerService.start(Duration.ofMillis(options.latencyMillis()))) {
            EnrichRace.Result result = EnrichRace.runOne(kafka, service, contestant, 1, options);

            assertThat(result.records()).isEqualTo(ORDERS);
            assertThat(result.calls()).as("calls to the service").isGreaterThanOrEqualTo(ORDERS);
            assertThat(result.deadLetters())
                    .as("orders the service never answered")
                    .isZero();
            assertThat(result.seconds()).isPositive();
            assertThat(result.secondsAfterFirstCall())
                    .as("the steady part of the run: from the first call the harness saw, else from the fork")
                    .isPositive()
                    .isLessThanOrEqualTo(result.seconds());
            assertThat(result.cpu().millis()).as("CPU of the contestant's JVM").isPositive();
        }
    }
}
