/** The pipeline runner. Internal: no compatibility promise. */
package io.etl.core.internal.runtime;
