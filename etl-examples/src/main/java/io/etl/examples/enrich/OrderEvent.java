package io.etl.examples.enrich;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * An order event as it arrives, JSON keyed by {@code customer}:
 * {@code {"id":"o-42","customer":"c-7","seq":3,"amount_cents":1250}}.
 *
 * @param id          order id
 * @param customer    customer id, also the Kafka key
 * @param seq         the event's number among its customer's events, from 0
 * @param amountCents amount in cents
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record OrderEvent(
        String id,
        String customer,
        long seq,
        @JsonProperty("amount_cents") long amountCents) {

    /** This order completed with what the customer service knows about its customer. */
    public EnrichedOrder enrich(Customer c) {
        return new EnrichedOrder(id, customer, seq, amountCents, c.tier(), c.region());
    }
}
