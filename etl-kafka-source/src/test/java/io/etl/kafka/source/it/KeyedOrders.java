package io.etl.kafka.source.it;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.RetryableException;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.source.KafkaSource;
import io.etl.testkit.TestRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Orders keyed by customer with a sequence number per customer, and the pipeline that enriches each with a call to
 * a local HTTP service in an asynchronous stage: the input of the async-stage ITs. Order {@code i} belongs to
 * customer {@code i % CUSTOMERS} with sequence number {@code i / CUSTOMERS}; with {@link LoadProducer} (order
 * {@code i} to partition {@code i % partitions}) and a customer count that the partition count divides, each
 * customer's orders sit in one partition in sequence order.
 */
final class KeyedOrders {

    /** The {@link Pipelines#named} kind of {@link #enrich}: {@code enrich@<service url>}. */
    static final String ENRICH_KIND = "enrich@";

    static final int CUSTOMERS = 60;

    private KeyedOrders() {}

    /** An input order. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Keyed(String id, String customer, long seq) {}

    /** What the pipeline writes: the order and the service's answer. */
    record Enriched(String id, String customer, long seq, String answer) {}

    static TestRecord record(int i) {
        String customer = "c-" + (i % CUSTOMERS);
        return TestRecord.of(
                customer,
                "{\"id\":\"" + Orders.id(i) + "\",\"customer\":\"" + customer + "\",\"seq\":" + (i / CUSTOMERS) + "}");
    }

    /** {@code GET <service>customers/<customer>} for each order in stage {@code enrich}, in order per customer. */
    static Pipeline enrich(PipelineConfig config, URI service) {
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        return Pipeline.named("keyed-enrich")
                .from(KafkaSource.from(config.source("orders")).json(Keyed.class))
                .<Enriched>mapAsync(
                        "enrich",
                        o -> http.sendAsync(
                                        HttpRequest.newBuilder(service.resolve("customers/" + o.customer()))
                                                .build(),
                                        HttpResponse.BodyHandlers.ofString())
                                .thenApply(r -> {
                                    if (r.statusCode() >= 500) {
                                        throw new RetryableException("service answered " + r.statusCode());
                                    }
                                    if (r.statusCode() != 200) {
                                        throw new IllegalStateException("service answered " + r.statusCode());
                                    }
                                    return new Enriched(o.id(), o.customer(), o.seq(), r.body());
                                }))
                .to(KafkaSink.from(config.sink("out")).json());
    }

    /**
     * Per customer, the places where its outputs break its order: an output whose sequence number is more than one
     * past the highest one before it (a replay after a crash may repeat earlier ones, but never skips ahead).
     */
    static List<String> orderViolations(List<TestRecord> out) {
        Map<String, Long> highest = new HashMap<>();
        List<String> violations = new ArrayList<>();
        for (TestRecord r : out) {
            JsonNode node = json(r);
            String customer = node.get("customer").asText();
            long seq = node.get("seq").asLong();
            long before = highest.getOrDefault(customer, -1L);
            if (seq > before + 1) {
                violations.add(customer + ": " + seq + " after " + before);
            }
            highest.put(customer, Math.max(before, seq));
        }
        return violations;
    }

    /** Each customer's sequence numbers in output order. */
    static Map<String, List<Long>> sequences(List<TestRecord> out) {
        Map<String, List<Long>> seqs = new LinkedHashMap<>();
        for (TestRecord r : out) {
            JsonNode node = json(r);
            seqs.computeIfAbsent(node.get("customer").asText(), c -> new ArrayList<>())
                    .add(node.get("seq").asLong());
        }
        return seqs;
    }

    private static JsonNode json(TestRecord r) {
        try {
            return Orders.JSON.readTree(r.value());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
