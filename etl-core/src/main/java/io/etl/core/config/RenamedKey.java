package io.etl.core.config;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a configuration record whose key {@link #from()} is now {@link #to()}: the old key stays an unknown
 * key (binding fails), but its problem names the new key instead of guessing a likely typo. For example
 * {@code KafkaSinkConfig} carries {@code @RenamedKey(from = "admin_timeout", to = "startup_timeout")}, so an old
 * section fails with {@code sinks.eu.kafka.admin_timeout: unknown key (renamed to startup_timeout)}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Repeatable(RenamedKey.List.class)
public @interface RenamedKey {

    /** The key as it used to be spelt. */
    String from();

    /** The key that replaced it. */
    String to();

    /** Holds several {@link RenamedKey}s on one record. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE)
    @interface List {

        /** The renamed keys. */
        RenamedKey[] value();
    }
}
