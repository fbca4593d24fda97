package io.etl.kafka.common.internal;

import io.etl.core.error.ConfigException;
import java.io.File;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.security.auth.Subject;
import javax.security.auth.kerberos.KerberosPrincipal;
import javax.security.auth.kerberos.KeyTab;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;
import javax.security.auth.login.LoginContext;
import javax.security.auth.login.LoginException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JVM-wide side of Kerberos. The JDK reads its Kerberos configuration from one place per JVM, the system
 * property {@value #KRB5_CONF_PROPERTY}, so two sections naming different files cannot both be honoured: the
 * second is refused with a clear error instead of silently using the first. A login is checked once per principal
 * and keytab version.
 */
public final class KerberosSupport {

    /** The system property the JDK's Kerberos reads its configuration file from. */
    public static final String KRB5_CONF_PROPERTY = "java.security.krb5.conf";

    private static final Logger LOG = LoggerFactory.getLogger(KerberosSupport.class);
    private static final String LOGIN_MODULE = "com.sun.security.auth.module.Krb5LoginModule";
    /** Principal, keytab and keytab modification time of the logins that succeeded: checked once each. */
    private static final Set<String> LOGGED_IN = ConcurrentHashMap.newKeySet();

    private KerberosSupport() {}

    /** Why {@code file} cannot be this JVM's Kerberos configuration, or empty when it can. */
    public static Optional<String> conflict(String file) {
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
            throw ConfigException.of(
                    path,
                    "'" + principal + "' is not a usable Kerberos principal (" + e.getMessage()
                            + "); write it with its realm, e.g. etl@EXAMPLE.COM",
                    e);
        }
        KeyTab tab = KeyTab.getInstance(new File(keytab));
        if (!tab.exists()) {
            throw ConfigException.of(path, "keytab " + keytab + " does not exist or is not a keytab");
        }
        if (tab.getKeys(kerberosPrincipal).length == 0) {
            throw ConfigException.of(
                    path,
                    "keytab " + keytab + " holds no key for principal " + kerberosPrincipal
                            + " (check the principal's spelling and realm against the keytab, e.g. with klist -k)");
        }
    }

    /**
     * Logs in once, as the Kafka client will, so that a principal the KDC does not know, an outdated key or an
     * unreachable KDC fails with the principal, the keytab and the KDC's reason instead of the client's
     * "Failed to create new KafkaAdminClient". A success is remembered for the keytab's current version.
     *
     * @param path the key path of {@code principal}, for the error
     * @throws ConfigException when the login fails
     */
    static void requireLogin(String path, String keytab, String principal) {
        File file = new File(keytab);
        String key = principal + '\u0000' + file.getAbsolutePath() + '\u0000' + file.lastModified();
        if (LOGGED_IN.contains(key)) {
            return;
        }
        Map<String, String> options = Map.of(
                "useKeyTab",
                "true",
                "storeKey",
                "true",
                "doNotPrompt",
                "true",
                "keyTab",
                keytab,
                "principal",
                principal);
        Configuration configuration = new Configuration() {
            @Override
            public AppConfigurationEntry[] getAppConfigurationEntry(String name) {
                return new AppConfigurationEntry[] {
                    new AppConfigurationEntry(
                            LOGIN_MODULE, AppConfigurationEntry.LoginModuleControlFlag.REQUIRED, options)
                };
            }
        };
        try {
            LoginContext login = new LoginContext("etl-kerberos-check", new Subject(), null, configuration);
            login.login();
            login.logout();
        } catch (LoginException e) {
            throw ConfigException.of(
                    path,
                    "Kerberos login as " + principal + " with keytab " + keytab + " failed: "
                            + e.getMessage()
                            + " (is the principal known to the KDC, is the keytab's key current, can the"
                            + " KDC of "
                            + Optional.ofNullable(System.getProperty(KRB5_CONF_PROPERTY))
                                    .orElse("the JVM's krb5.conf")
                            + " be reached?)",
                    e);
        }
        LOGGED_IN.add(key);
        LOG.debug("Kerberos: {} logged in with keytab {}", principal, keytab);
    }

    private static boolean sameFile(String a, String b) {
        return Path.of(a)
                .toAbsolutePath()
                .normalize()
                .equals(Path.of(b).toAbsolutePath().normalize());
    }
}
