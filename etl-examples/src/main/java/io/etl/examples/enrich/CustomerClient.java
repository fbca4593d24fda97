package io.etl.examples.enrich;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.core.error.RetryableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The customer service's client, on the JDK's {@code HttpClient}: {@code GET <base>/customers/<id>}. An answer the
 * service may give differently later (429, 5xx, a broken connection) is a {@link RetryableException}, which an
 * asynchronous stage retries; any other status is a plain failure that goes to the stage's error policy.
 */
public final class CustomerClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final HttpClient http;

    private CustomerClient(URI base, HttpClient http) {
        this.base = base;
        this.http = http;
    }

    /** A client of the service at {@code base} ({@code http://host:port/}). */
    public static CustomerClient of(URI base) {
        return new CustomerClient(
                base,
                HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(5))
                        .build());
    }

    /** Looks up {@code customerId} without blocking. */
    public CompletableFuture<Customer> lookup(String customerId) {
        return http.sendAsync(request(customerId), HttpResponse.BodyHandlers.ofByteArray())
                .handle((response, error) -> {
                    if (error != null) {
                        throw new RetryableException("customer service unreachable: " + error, error);
                    }
                    return customer(customerId, response);
                });
    }

    /** Looks up {@code customerId}, blocking the calling thread until the answer is in. */
    public Customer lookupBlocking(String customerId) {
        try {
            return customer(customerId, http.send(request(customerId), HttpResponse.BodyHandlers.ofByteArray()));
        } catch (IOException e) {
            throw new RetryableException("customer service unreachable: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RetryableException("interrupted while waiting for the customer service", e);
        }
    }

    private HttpRequest request(String customerId) {
        return HttpRequest.newBuilder(
                        base.resolve("customers/" + URLEncoder.encode(customerId, StandardCharsets.UTF_8)))
                .timeout(Duration.ofSeconds(30))
                .GET()
                .build();
    }

    private static Customer customer(String customerId, HttpResponse<byte[]> response) {
        int status = response.statusCode();
        if (status == 429 || status >= 500) {
            throw new RetryableException("customer service answered " + status + " for " + customerId);
        }
        if (status != 200) {
            throw new IllegalStateException("customer service answered " + status + " for " + customerId);
        }
        try {
            return JSON.readValue(response.body(), Customer.class);
        } catch (IOException e) {
            throw new UncheckedIOException("customer service sent no customer for " + customerId, e);
        }
    }
}
