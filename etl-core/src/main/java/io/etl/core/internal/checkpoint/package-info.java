/** Offset tracking behind durable output. Internal: no compatibility promise. */
package io.etl.core.internal.checkpoint;
