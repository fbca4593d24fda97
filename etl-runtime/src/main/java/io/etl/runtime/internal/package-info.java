/** Implementation of the runtime: no compatibility promise; use {@link io.etl.runtime} instead. */
package io.etl.runtime.internal;
