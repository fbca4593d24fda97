/**
 * The {@code etl-examples} program ({@link io.etl.examples.EtlExamples}): its command line, the
 * {@code validate} command and the Prometheus endpoint the examples share. Each example lives in its own
 * sub-package, for example {@link io.etl.examples.split}.
 */
package io.etl.examples;
