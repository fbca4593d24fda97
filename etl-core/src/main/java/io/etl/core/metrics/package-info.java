/** Names of the framework's Micrometer meters. */
package io.etl.core.metrics;
