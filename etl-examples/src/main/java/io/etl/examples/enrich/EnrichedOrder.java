package io.etl.examples.enrich;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What the pipeline writes: the order and its customer's tier and region.
 *
 * @param id          order id
 * @param customer    customer id, also the Kafka key
 * @param seq         the event's number among its customer's events
 * @param amountCents amount in cents
 * @param tier        the customer's tier
 * @param region      the customer's region
 */
public record EnrichedOrder(
        String id,
        String customer,
        long seq,
        @JsonProperty("amount_cents") long amountCents,
        String tier,
        String region) {}
