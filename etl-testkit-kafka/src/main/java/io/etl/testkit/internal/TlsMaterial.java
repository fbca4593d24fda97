package io.etl.testkit.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away CA, a broker certificate for {@code IP:127.0.0.1} / {@code DNS:localhost}, and client
 * certificates on demand, written as PKCS12 stores into one directory. EC P-256 keys: fast to make.
 */
final class TlsMaterial {

    static final String STORE_TYPE = "PKCS12";
    private static final String SIGNATURE = "SHA256withECDSA";
    private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

    private final Path dir;
    private final String password;
    private final KeyPair caKeys;
    private final X509Certificate caCert;
    private final Path truststore;
    private final Path caPem;
    private final Path brokerKeystore;
    private final Map<String, Path> clientKeystores = new HashMap<>();

    private TlsMaterial(Path dir) throws GeneralSecurityException, IOException, OperatorCreationException {
        this.dir = dir;
        byte[] random = new byte[12];
        new SecureRandom().nextBytes(random);
        this.password = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        this.caKeys = newKeyPair();
        this.caCert = sign(new X500Name("CN=etl-testkit CA"), caKeys, true, null, null);

        KeyStore trust = emptyStore();
        trust.setCertificateEntry("ca", caCert);
        this.truststore = write(trust, "truststore.p12");
        this.caPem = dir.resolve("ca.pem");
        Files.writeString(caPem, pem(caCert), StandardCharsets.US_ASCII);

        KeyPair brokerKeys = newKeyPair();
        GeneralNames san = new GeneralNames(new GeneralName[] {
            new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")
        });
        X509Certificate brokerCert = sign(new X500Name("CN=localhost"), brokerKeys, false, san, new KeyPurposeId[] {
            KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth
        });
        this.brokerKeystore = keystore("broker", brokerKeys.getPrivate(), brokerCert);
    }

    static TlsMaterial create(Path dir) {
        try {
            Files.createDirectories(dir);
            return new TlsMaterial(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write TLS material to " + dir, e);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot generate test certificates", e);
        }
    }

    String password() {
        return password;
    }

    Path truststore() {
        return truststore;
    }

    Path caPem() {
        return caPem;
    }

    String caPemText() {
        return pem(caCert);
    }

    Path brokerKeystore() {
        return brokerKeystore;
    }

    /** @return a keystore with a client certificate {@code CN=user}, made on first use */
    synchronized Path clientKeystore(String user) {
        return clientKeystores.computeIfAbsent(user, u -> {
            try {
                KeyPair keys = newKeyPair();
                X509Certificate cert = sign(
                        new X500NameBuilder(BCStyle.INSTANCE)
                                .addRDN(BCStyle.CN, u)
                                .build(),
                        keys,
                        false,
                        null,
                        new KeyPurposeId[] {KeyPurposeId.id_kp_clientAuth});
                return keystore("client-" + clientKeystores.size(), keys.getPrivate(), cert);
            } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
                throw new IllegalStateException("cannot make a client certificate for " + u, e);
            }
        });
    }

    private Path keystore(String name, PrivateKey key, X509Certificate cert)
            throws GeneralSecurityException, IOException {
        KeyStore store = emptyStore();
        store.setKeyEntry(name, key, password.toCharArray(), new Certificate[] {cert, caCert});
        return write(store, name + ".p12");
    }

    private KeyStore emptyStore() throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance(STORE_TYPE);
        store.load(null, null);
        return store;
    }

    private Path write(KeyStore store, String fileName) throws GeneralSecurityException, IOException {
        Path file = dir.resolve(fileName);
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, password.toCharArray());
        }
        return file;
    }

    private X509Certificate sign(X500Name subject, KeyPair keys, boolean ca, GeneralNames san, KeyPurposeId[] purposes)
            throws GeneralSecurityException, IOException, OperatorCreationException {
        Instant now = Instant.now();
        X500Name issuer = ca
                ? subject
                : X500Name.getInstance(caCert.getSubjectX500Principal().getEncoded());
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                issuer,
                BigInteger.valueOf(SERIAL.incrementAndGet()),
                Date.from(now.minus(Duration.ofHours(1))),
                Date.from(now.plus(Duration.ofDays(2))),
                subject,
                keys.getPublic());
        JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
        builder.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()));
        if (ca) {
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        } else {
            builder.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(caCert));
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(
                    Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement));
            if (purposes != null) {
                builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purposes));
            }
            if (san != null) {
                builder.addExtension(Extension.subjectAlternativeName, false, san);
            }
        }
        PrivateKey signingKey = ca ? keys.getPrivate() : caKeys.getPrivate();
        ContentSigner signer = new JcaContentSignerBuilder(SIGNATURE).build(signingKey);
        return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
    }

    private static KeyPair newKeyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(256);
        return generator.generateKeyPair();
    }

    private static String pem(X509Certificate cert) {
        try {
            String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                    .encodeToString(cert.getEncoded());
            return "-----BEGIN CERTIFICATE-----\n" + body + "\n-----END CERTIFICATE-----\n";
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
