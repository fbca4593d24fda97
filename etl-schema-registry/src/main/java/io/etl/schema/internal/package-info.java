/**
 * The wire format, the registry client and the decoders and encoders behind {@code io.etl.schema}. No
 * compatibility promise: these types may change in any release.
 */
package io.etl.schema.internal;
