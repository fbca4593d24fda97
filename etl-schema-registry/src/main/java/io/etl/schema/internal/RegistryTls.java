package io.etl.schema.internal;

import io.etl.core.error.ConfigException;
import io.etl.kafka.common.KafkaTlsConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * An {@link SSLContext} for the registry's HTTPS URLs from the typed TLS settings: trust from a PEM CA file or a
 * PKCS12/JKS truststore (else the JVM's default), a client certificate from PEM files (PKCS#8 key, encrypted or
 * not) or a PKCS12/JKS keystore.
 */
final class RegistryTls {

    private static final Pattern PEM =
            Pattern.compile("-----BEGIN ([A-Z ]+)-----([A-Za-z0-9+/=\\s]+)-----END \\1-----");
    private static final char[] NO_PASSWORD = new char[0];

    private RegistryTls() {}

    /** The context, or a {@link ConfigException} at {@code path} naming the file it could not use. */
    static SSLContext context(KafkaTlsConfig tls, String path) {
        try {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            if (tls.caFile() != null) {
                KeyStore trust = emptyStore();
                int i = 0;
                for (Certificate c : certificates(tls.caFile(), path + ".ca_file")) {
                    trust.setCertificateEntry("ca-" + i++, c);
                }
                tmf.init(trust);
            } else if (tls.truststoreFile() != null) {
                tmf.init(load(tls.truststoreFile(), tls.truststorePassword(), path + ".truststore_file"));
            } else {
                tmf.init((KeyStore) null);
            }
            KeyManagerFactory kmf = null;
            if (tls.certFile() != null && tls.keyFile() != null) {
                KeyStore keys = emptyStore();
                List<Certificate> chain = certificates(tls.certFile(), path + ".cert_file");
                char[] password = tls.keyPassword() == null
                        ? NO_PASSWORD
                        : tls.keyPassword().toCharArray();
                keys.setKeyEntry(
                        "client",
                        privateKey(tls.keyFile(), tls.keyPassword(), path + ".key_file"),
                        password,
                        chain.toArray(Certificate[]::new));
                kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(keys, password);
            } else if (tls.keystoreFile() != null) {
                KeyStore keys = load(tls.keystoreFile(), tls.keystorePassword(), path + ".keystore_file");
                String keyPassword = tls.keyPassword() != null ? tls.keyPassword() : tls.keystorePassword();
                kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(keys, keyPassword.toCharArray());
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw ConfigException.of(path, "cannot set up TLS for the schema registry: " + e.getMessage(), e);
        }
    }

    private static KeyStore emptyStore() throws GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try {
            store.load(null, null);
        } catch (IOException e) {
            throw new GeneralSecurityException(e);
        }
        return store;
    }

    private static KeyStore load(String file, String password, String path) {
        String lower = file.toLowerCase(Locale.ROOT);
        String type = lower.endsWith(".jks") ? "JKS" : "PKCS12";
        try (InputStream in = Files.newInputStream(Path.of(file))) {
            KeyStore store = KeyStore.getInstance(type);
            store.load(in, password == null ? null : password.toCharArray());
            return store;
        } catch (IOException | GeneralSecurityException e) {
            throw ConfigException.of(path, "cannot read " + type + " store " + file + ": " + e.getMessage(), e);
        }
    }

    private static List<Certificate> certificates(String file, String path) {
        try (InputStream in = Files.newInputStream(Path.of(file))) {
            List<Certificate> certs =
                    new ArrayList<>(CertificateFactory.getInstance("X.509").generateCertificates(in));
            if (certs.isEmpty()) {
                throw ConfigException.of(path, "no certificate in " + file);
            }
            return certs;
        } catch (IOException | GeneralSecurityException e) {
            throw ConfigException.of(path, "cannot read certificates from " + file + ": " + e.getMessage(), e);
        }
    }

    private static PrivateKey privateKey(String file, String password, String path) {
        try {
            String pem = Files.readString(Path.of(file), StandardCharsets.US_ASCII);
            Matcher m = PEM.matcher(pem);
            while (m.find()) {
                String kind = m.group(1);
                byte[] der = Base64.getMimeDecoder().decode(m.group(2).getBytes(StandardCharsets.US_ASCII));
                PKCS8EncodedKeySpec spec;
                if (kind.equals("ENCRYPTED PRIVATE KEY")) {
                    if (password == null) {
                        throw ConfigException.of(path, "the key in " + file + " is encrypted: set key_password");
                    }
                    EncryptedPrivateKeyInfo info = new EncryptedPrivateKeyInfo(der);
                    SecretKeyFactory skf = SecretKeyFactory.getInstance(info.getAlgName());
                    spec = info.getKeySpec(skf.generateSecret(new PBEKeySpec(password.toCharArray())));
                } else if (kind.equals("PRIVATE KEY")) {
                    spec = new PKCS8EncodedKeySpec(der);
                } else {
                    continue;
                }
                for (String algorithm : new String[] {"RSA", "EC", "Ed25519", "DSA"}) {
                    try {
                        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
                    } catch (GeneralSecurityException wrongAlgorithm) {
                        // try the next
                    }
                }
            }
            throw ConfigException.of(path, "no PKCS#8 private key (BEGIN PRIVATE KEY) in " + file);
        } catch (IOException | GeneralSecurityException e) {
            throw ConfigException.of(path, "cannot read the private key in " + file + ": " + e.getMessage(), e);
        }
    }
}
