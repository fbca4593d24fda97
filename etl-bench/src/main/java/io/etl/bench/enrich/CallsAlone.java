package io.etl.bench.enrich;

import io.etl.examples.enrich.CustomerClient;
import io.etl.examples.enrich.OrderEvent;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The enrich race's CPU limit without Kafka: the per-order work of the asynchronous contestants alone. Each order's
 * JSON is decoded, its customer looked up through the same client ({@code CustomerClient.lookup},
 * {@code sendAsync}) with at most {@code concurrency} calls in flight, and the enriched order encoded; no broker, no
 * offsets. What this program reaches on a machine is the most any contestant could reach there, since each does
 * this and more.
 *
 * <p>{@code CallsAlone SERVICE_URL RECORDS KEYS CONCURRENCY}; exits 0 when every call succeeded, 1 otherwise.
 */
final class CallsAlone {

    private CallsAlone() {}

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 4) {
            System.err.println("usage: CallsAlone SERVICE_URL RECORDS KEYS CONCURRENCY");
            System.exit(2);
        }
        CustomerClient client = CustomerClient.of(URI.create(args[0]));
        int records = Integer.parseInt(args[1]);
        int keys = Integer.parseInt(args[2]);
        int concurrency = Integer.parseInt(args[3]);
        Semaphore inFlight = new Semaphore(concurrency);
        AtomicLong encodedBytes = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int i = 0; i < records && failure.get() == null; i++) {
            OrderEvent order = EnrichOrdersInput.decode(
                    EnrichOrdersInput.orderJson(i, keys).getBytes(StandardCharsets.UTF_8));
            inFlight.acquire();
            client.lookup(order.customer()).thenApply(order::enrich).whenComplete((enriched, error) -> {
                if (error != null) {
                    failure.compareAndSet(null, error);
                } else {
                    encodedBytes.addAndGet(EnrichOrdersInput.encode(enriched).length);
                }
                inFlight.release();
            });
        }
        inFlight.acquire(concurrency);
        if (failure.get() != null) {
            System.err.println("a call failed: " + failure.get());
            System.exit(1);
        }
        System.out.println("calls-alone: " + records + " orders enriched, " + encodedBytes.get() + " bytes encoded");
    }
}
