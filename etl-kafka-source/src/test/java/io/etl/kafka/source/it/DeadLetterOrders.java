package io.etl.kafka.source.it;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.RetryableException;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.source.KafkaSource;
import io.etl.testkit.TestRecord;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Orders that fail at a chosen stage, and the pipeline the dead-letter tests run: decode JSON orders, check
 * them ({@code check}), reshape, split by region into {@code eu} and {@code rest}.
 */
final class DeadLetterOrders {

    /** How order {@code i} is made, and where (if anywhere) it fails. */
    enum Kind {
        /** Delivered. */
        GOOD(null),
        /** Not JSON: fails to decode. */
        MALFORMED("decode"),
        /** The check throws an IllegalStateException: a bug, never retried. */
        EXPLODE("operator:check"),
        /** The check throws RetryableException on the first call only, then passes: delivered. */
        FLAKY(null),
        /** The check throws RetryableException every time: dead-lettered after the retries. */
        PERSISTENT("operator:check"),
        /** The split predicate throws. */
        BOOM("split:by-region"),
        /** Too large for the {@code rest} sink: rejected by its encoder. */
        HUGE("encode:rest"),
        /** No key, to the compacted {@code eu} topic: the broker refuses it. */
        NO_KEY("produce:eu");

        final String stage;

        Kind(String stage) {
            this.stage = stage;
        }
    }

    private static final Set<String> FLAKY_SEEN = ConcurrentHashMap.newKeySet();

    private DeadLetterOrders() {}

    /** Order {@code i} of {@code kind}; good orders alternate between eu and us. */
    static TestRecord record(int i, Kind kind) {
        String id = Orders.id(i);
        String region = i % 2 == 0 ? "eu" : "us";
        String customer = "c-" + (i % 97);
        String status = "new";
        switch (kind) {
            case MALFORMED -> {
                return TestRecord.of(id, "{\"id\":\"" + id + "\", oops").toPartition(0);
            }
            case EXPLODE -> status = "explode";
            case FLAKY -> status = "flaky";
            case PERSISTENT -> status = "persistent";
            case BOOM -> region = "boom";
            case HUGE -> {
                region = "us";
                customer = "c".repeat(3000);
            }
            case NO_KEY -> region = "eu";
            case GOOD -> {}
        }
        String json = "{\"id\":\"" + id + "\",\"customer\":\"" + customer + "\",\"region\":\"" + region
                + "\",\"amount\":" + (i % 1000) + ".5,\"status\":\"" + status + "\",\"ts\":" + (1_700_000_000_000L + i)
                + ",\"notes\":\"ring twice\"}";
        return TestRecord.of(kind == Kind.NO_KEY ? null : id, json)
                .withHeader("origin", "test-" + i)
                .toPartition(0);
    }

    /** The {@code check} operator. */
    static Orders.Order check(Orders.Order o) {
        switch (o.status()) {
            case "explode" -> throw new IllegalStateException("order " + o.id() + " explodes");
            case "persistent" -> throw new RetryableException("lookup for " + o.id() + " keeps timing out");
            case "flaky" -> {
                if (FLAKY_SEEN.add(o.id())) {
                    throw new RetryableException("lookup for " + o.id() + " timed out once");
                }
            }
            default -> {}
        }
        return o;
    }

    /** The {@code eu} branch's predicate; throws for the region {@code boom}. */
    static boolean isEu(Orders.Routed r) {
        if (r.region().equals("boom")) {
            throw new IllegalArgumentException("no such region: " + r.region().toUpperCase(Locale.ROOT));
        }
        return r.region().equals("eu");
    }

    /** The pipeline; stage policies come from the configuration. */
    static Pipeline pipeline(PipelineConfig config) {
        return Pipeline.named("orders-dlq")
                .from(KafkaSource.from(config.source("orders")).json(Orders.Order.class))
                .map("check", DeadLetterOrders::check)
                .map("reshape", Orders.Order::reshape)
                .split(
                        "by-region",
                        s -> s.branch(
                                        "eu",
                                        DeadLetterOrders::isEu,
                                        KafkaSink.from(config.sink("eu")).json())
                                .otherwise(KafkaSink.from(config.sink("rest")).json()));
    }
}
