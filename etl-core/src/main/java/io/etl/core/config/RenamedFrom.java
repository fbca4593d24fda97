package io.etl.core.config;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a configuration record component whose YAML key replaced older ones. A file that still uses an
 * old key is rejected like any unknown key, but the problem names the new key instead of guessing:
 * {@code sinks.eu.kafka.linger: unknown key (renamed to producer_linger)}.
 *
 * <pre>{@code
 * public record KafkaSinkConfig(..., @RenamedFrom("linger") Duration producerLinger, ...)
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface RenamedFrom {

    /** The former keys, as written in YAML (snake_case). */
    String[] value();
}
