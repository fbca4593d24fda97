/** The DSL's implementation. Internal: no compatibility promise. */
package io.etl.core.internal.dsl;
