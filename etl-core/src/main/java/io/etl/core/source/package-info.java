/** The source SPI: {@link io.etl.core.source.Source} and what it talks to. */
package io.etl.core.source;
