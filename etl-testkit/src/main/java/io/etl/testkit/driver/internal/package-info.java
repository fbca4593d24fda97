/**
 * What the test driver needs from the core's extension points, such as the connector behind captured dead letters.
 * Internal: no compatibility promise.
 */
package io.etl.testkit.driver.internal;
