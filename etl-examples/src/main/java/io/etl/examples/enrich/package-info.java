/**
 * The {@code enrich_orders} example: each order is completed by a call to a customer service, many calls in flight
 * at once, in order per customer.
 */
package io.etl.examples.enrich;
