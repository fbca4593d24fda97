/** The error taxonomy and record-level error policies. */
package io.etl.core.error;
