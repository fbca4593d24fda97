package io.etl.examples.enrich;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * What the customer service answers for one customer.
 *
 * @param id     customer id
 * @param tier   {@code gold}, {@code silver} or {@code bronze}
 * @param region {@code eu}, {@code us} or {@code apac}
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Customer(String id, String tier, String region) {}
