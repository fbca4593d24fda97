/** Records and their source metadata: what flows through a pipeline. */
package io.etl.core.record;
