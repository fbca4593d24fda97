package io.etl.kafka.common;

import io.etl.core.error.ConfigException;
import java.io.File;
import java.nio.file.Path;
import java.util.Optional;
import javax.security.auth.kerberos.KerberosPrincipal;
import javax.security.auth.kerberos.KeyTab;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JVM-wide side of Kerberos. The JDK reads its Kerberos configuration from one place per JVM, the system
 * property {@value #KRB5_CONF_PROPERTY}, so two sections naming different files cannot both be honoured: the
 * second is refused with a clear error instead of silently using the first.
 */
final class KerberosSupport {

    /** The system property the JDK's Kerberos reads its configuration file from. */
    static final String KRB5_CONF_PROPERTY = "java.security.krb5.conf";

    private static final Logger LOG = LoggerFactory.getLogger(KerberosSupport.class);

    private KerberosSupport() {
    }

    /** Why {@code file} cannot be this JVM's Kerberos configuration, or empty when it can. */
    static Optional<String> conflict(String file) {
        String current = System.getProperty(KRB5_CONF_PROPERTY);
        if (current == null || sameFile(current, file)) {
            return Optional.empty();
        }
        return Optional.of("the Kerberos configuration is JVM-wide (" + KRB5_CONF_PROPERTY + ") and this JVM already"
                + " uses " + current + "; one JVM can use one krb5 configuration: give every section the same"
                + " krb5_config_file, or none");
    }

    /**
     * Makes {@code file} this JVM's Kerberos configuration, unless it already is.
     *
     * @param path the key path of {@code krb5_config_file}, for the error
     * @throws ConfigException when another file is already in use
     */
    static synchronized void useConfiguration(String path, String file) {
        Optional<String> conflict = conflict(file);
        if (conflict.isPresent()) {
            throw ConfigException.of(path, conflict.get());
        }
        if (System.getProperty(KRB5_CONF_PROPERTY) == null) {
            String absolute = Path.of(file).toAbsolutePath().normalize().toString();
            System.setProperty(KRB5_CONF_PROPERTY, absolute);
            LOG.info("Kerberos: {} set to {} for this JVM", KRB5_CONF_PROPERTY, absolute);
        }
    }

    /**
     * Checks, without contacting a KDC, that {@code keytab} holds keys for {@code principal}: a principal
     * spelled differently from the keytab's entry fails here with both names, not deep inside the login.
     *
     * @param path the key path of {@code principal}, for the error
     * @throws ConfigException when it does not
     */
    static void requireKeysFor(String path, String keytab, String principal) {
        KerberosPrincipal kerberosPrincipal;
        try {
            kerberosPrincipal = new KerberosPrincipal(principal);
        } catch (IllegalArgumentException e) {
            throw ConfigException.of(path, "'" + principal + "' is not a usable Kerberos principal (" + e.getMessage()
                    + "); write it with its realm, e.g. etl@EXAMPLE.COM", e);
        }
        KeyTab tab = KeyTab.getInstance(new File(keytab));
        if (!tab.exists()) {
            throw ConfigException.of(path, "keytab " + keytab + " does not exist or is not a keytab");
        }
        if (tab.getKeys(kerberosPrincipal).length == 0) {
            throw ConfigException.of(path, "keytab " + keytab + " holds no key for principal " + kerberosPrincipal
                    + " (check the principal's spelling and realm against the keytab, e.g. with klist -k)");
        }
    }

    private static boolean sameFile(String a, String b) {
        return Path.of(a).toAbsolutePath().normalize().equals(Path.of(b).toAbsolutePath().normalize());
    }
}
