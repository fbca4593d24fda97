package io.etl.examples.enrich;

import io.etl.testkit.http.TestHttpService;
import java.time.Duration;

/**
 * The example's customer service, a real local HTTP service (the test kit's {@link TestHttpService}): it answers
 * {@code GET /customers/<id>} after a fixed latency with a customer derived from the id, so a test can tell what
 * each order must become.
 */
public final class CustomerService {

    private static final String[] TIERS = {"gold", "silver", "bronze"};
    private static final String[] REGIONS = {"eu", "us", "apac"};

    private CustomerService() {}

    /** Starts the service on a free loopback port; every answer takes {@code latency}. */
    public static TestHttpService start(Duration latency) {
        return TestHttpService.start(latency, CustomerService::answer);
    }

    /** The customer the service answers for {@code id}. */
    public static Customer customer(String id) {
        int h = Math.floorMod(id.hashCode(), 9);
        return new Customer(id, TIERS[h % 3], REGIONS[h / 3]);
    }

    private static String answer(String path) {
        String id = path.substring(path.lastIndexOf('/') + 1);
        Customer c = customer(id);
        return "{\"id\":\"" + c.id() + "\",\"tier\":\"" + c.tier() + "\",\"region\":\"" + c.region() + "\"}";
    }
}
