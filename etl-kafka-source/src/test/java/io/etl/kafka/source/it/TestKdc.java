package io.etl.kafka.source.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.kerby.kerberos.kerb.KrbException;
import org.apache.kerby.kerberos.kerb.server.SimpleKdcServer;

/**
 * A Kerberos KDC in this JVM (Apache Kerby), on a free TCP port of 127.0.0.1, with a {@code krb5.conf}
 * pointing at it. Principals get random keys, exported to one keytab each.
 */
final class TestKdc implements AutoCloseable {

    static final String REALM = "EXAMPLE.COM";

    private final SimpleKdcServer kdc;
    private final Path dir;
    private final Path krb5Conf;

    private TestKdc(SimpleKdcServer kdc, Path dir, Path krb5Conf) {
        this.kdc = kdc;
        this.dir = dir;
        this.krb5Conf = krb5Conf;
    }

    static TestKdc start(Path dir) {
        try {
            int port;
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
                port = socket.getLocalPort();
            }
            Path work = Files.createDirectories(dir.resolve("kdc"));
            String before = System.getProperty("java.security.krb5.conf");
            SimpleKdcServer kdc = new SimpleKdcServer();
            kdc.setWorkDir(work.toFile());
            kdc.setKdcRealm(REALM);
            kdc.setKdcHost("127.0.0.1");
            kdc.setAllowUdp(false);
            kdc.setKdcTcpPort(port);
            kdc.init();
            kdc.start();
            // Kerby points java.security.krb5.conf at a file of its own; the pipeline under test sets it itself
            if (before == null) {
                System.clearProperty("java.security.krb5.conf");
            } else {
                System.setProperty("java.security.krb5.conf", before);
            }
            // TCP only, no DNS: the host in a service principal is taken as written
            Path krb5 = Files.writeString(dir.resolve("krb5.conf"), """
                    [libdefaults]
                      default_realm = %s
                      udp_preference_limit = 1
                      dns_lookup_kdc = false
                      dns_lookup_realm = false
                      dns_canonicalize_hostname = false
                      rdns = false
                      ticket_lifetime = 24h
                      forwardable = true
                    [realms]
                      %s = {
                        kdc = 127.0.0.1:%d
                      }
                    """.formatted(REALM, REALM, port));
            return new TestKdc(kdc, dir, krb5);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the test KDC", e);
        } catch (KrbException e) {
            throw new IllegalStateException("cannot start the test KDC", e);
        }
    }

    Path krb5Conf() {
        return krb5Conf;
    }

    /** Creates {@code principal} (with the realm) and writes its keys to a keytab of its own. */
    Path principalWithKeytab(String principal, String fileName) {
        Path keytab = dir.resolve(fileName);
        try {
            kdc.createPrincipal(principal);
            kdc.exportPrincipal(principal, keytab.toFile());
        } catch (KrbException e) {
            throw new IllegalStateException("cannot create principal " + principal, e);
        }
        return keytab;
    }

    /** Removes {@code principal} from the KDC; keytabs made before keep its keys. */
    void deletePrincipal(String principal) {
        try {
            kdc.deletePrincipal(principal);
        } catch (KrbException e) {
            throw new IllegalStateException("cannot delete principal " + principal, e);
        }
    }

    @Override
    public void close() {
        try {
            kdc.stop();
        } catch (KrbException e) {
            throw new IllegalStateException("cannot stop the test KDC", e);
        }
    }
}
