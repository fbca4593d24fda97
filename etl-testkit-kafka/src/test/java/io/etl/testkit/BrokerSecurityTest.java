package io.etl.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class BrokerSecurityTest {

    @Test
    void scramWithAclsTurnsTheAuthorizerOnBesideTheDefaultSuperUser() {
        BrokerSecurity security = BrokerSecurity.scramWithAcls(Map.of("alice", "alice-secret", "bob", "bob-secret"));

        assertThat(security.mode()).isEqualTo(BrokerSecurity.Mode.SASL_SSL_SCRAM);
        assertThat(security.aclAuthorizer()).isTrue();
        assertThat(security.users()).isEqualTo(Map.of("alice", "alice-secret", "bob", "bob-secret"));
        assertThat(security.allUsers())
                .containsEntry(BrokerSecurity.DEFAULT_SUPER_USER, BrokerSecurity.DEFAULT_SUPER_USER_PASSWORD)
                .hasSize(3);
    }

    @Test
    void scramWithAclsRefusesAUserNamedLikeTheSuperUser() {
        assertThatThrownBy(() -> BrokerSecurity.scramWithAcls(Map.of(BrokerSecurity.DEFAULT_SUPER_USER, "x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + BrokerSecurity.DEFAULT_SUPER_USER + "' is already the super user");
    }
}
