/** The compiled operator chain. Internal: no compatibility promise. */
package io.etl.core.internal.chain;
