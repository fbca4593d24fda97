package io.etl.kafka.common;

/**
 * SASL settings of the typed security section ({@code security.sasl}). {@code PLAIN} and
 * {@code SCRAM-SHA-256/512} take a user name and password; {@code OAUTHBEARER} fetches tokens from
 * {@code token_endpoint_url} with the client-credentials grant ({@code client_id},
 * {@code client_secret}, optional {@code scope}). Keep secrets out of the file with {@code ${VAR}}.
 *
 * @param mechanism        PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER
 * @param username         user name (PLAIN, SCRAM)
 * @param password         password (PLAIN, SCRAM)
 * @param tokenEndpointUrl OAuth token endpoint (OAUTHBEARER)
 * @param clientId         OAuth client id (OAUTHBEARER)
 * @param clientSecret     OAuth client secret (OAUTHBEARER)
 * @param scope            OAuth scope to request, optional (OAUTHBEARER)
 */
public record KafkaSaslConfig(SaslMechanism mechanism, String username, String password, String tokenEndpointUrl,
                              String clientId, String clientSecret, String scope) {

    /** SCRAM-SHA-512 with a user name and password. */
    public static KafkaSaslConfig scramSha512(String username, String password) {
        return new KafkaSaslConfig(SaslMechanism.SCRAM_SHA_512, username, password, null, null, null, null);
    }

    /** SCRAM-SHA-256 with a user name and password. */
    public static KafkaSaslConfig scramSha256(String username, String password) {
        return new KafkaSaslConfig(SaslMechanism.SCRAM_SHA_256, username, password, null, null, null, null);
    }

    /** PLAIN with a user name and password. */
    public static KafkaSaslConfig plain(String username, String password) {
        return new KafkaSaslConfig(SaslMechanism.PLAIN, username, password, null, null, null, null);
    }

    @Override
    public String toString() {
        return "KafkaSaslConfig[mechanism=" + mechanism + ", username=" + username + ", password="
                + ClientProperties.mask(password) + ", tokenEndpointUrl=" + tokenEndpointUrl + ", clientId=" + clientId
                + ", clientSecret=" + ClientProperties.mask(clientSecret) + ", scope=" + scope + "]";
    }
}
