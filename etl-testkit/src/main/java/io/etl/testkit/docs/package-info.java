/**
 * Tests that keep the documentation in step with the code: {@link io.etl.testkit.docs.ConfigDocumentation}
 * finds configuration keys without a row in {@code docs/configuration.md}.
 */
package io.etl.testkit.docs;
