package io.chronix.tenancy.token;

import io.chronix.tenancy.DatabaseTest;
import io.chronix.tenancy.InvalidInputException;
import io.chronix.tenancy.Page;
import io.chronix.tenancy.tenant.CreatedTenant;
import io.chronix.tenancy.tenant.NewTenant;
import io.chronix.tenancy.tenant.TenantService;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TokenServiceTest extends DatabaseTest {

    @Autowired TokenService tokens;
    @Autowired TenantService tenants;
    @Autowired JdbcClient jdbc;

    UUID tenant;

    @BeforeEach
    void tenant() {
        tenant = tenants.create(new NewTenant("t" + UUID.randomUUID().toString().substring(0, 8), null, null, null)).tenant().id();
    }

    @Test
    void tokenHasTheDocumentedFormatAndAtLeast128BitsOfSecret() {
        IssuedToken t = tokens.issue(tenant, "grafana", List.of("read:metrics"), null);
        assertThat(t.token()).matches("cx_[a-z2-7]{16}_[a-z2-7]{32}");
        // 32 base32 characters = 160 bits
        assertThat(t.token().substring(20).length() * 5).isGreaterThanOrEqualTo(128);
        assertThat(t.toString()).doesNotContain(t.token().substring(20));
        assertThat(t.info().scopes()).containsExactly(new Scope(Scope.Action.READ, "metrics"));
    }

    @Test
    void revokedTokenIsRejectedOnTheNextVerification() {
        IssuedToken t = tokens.issue(tenant, "", List.of("write:*"), null);
        assertThat(tokens.verify(t.token())).isPresent();
        assertThat(tokens.revoke(tenant, t.info().id())).isTrue();
        assertThat(tokens.verify(t.token())).isEmpty();
        assertThat(tokens.revoke(tenant, t.info().id())).isFalse();
        assertThat(tokens.list(tenant, Page.FIRST)).extracting(TokenInfo::id).doesNotContain(t.info().id());
    }

    @Test
    void expiredTokenIsRejected() {
        IssuedToken t = tokens.issue(tenant, "", List.of("read:*"), Instant.now().plusSeconds(1));
        assertThat(tokens.verify(t.token())).isPresent();
        jdbc.sql("UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = ?").param(t.info().id()).update();
        assertThat(tokens.verify(t.token())).isEmpty();
    }

    @Test
    void anotherTenantCannotRevoke() {
        CreatedTenant other = tenants.create(new NewTenant("o" + UUID.randomUUID().toString().substring(0, 8), null, null, null));
        IssuedToken t = tokens.issue(tenant, "", List.of("read:*"), null);
        assertThat(tokens.revoke(other.tenant().id(), t.info().id())).isFalse();
        assertThat(tokens.verify(t.token())).isPresent();
    }

    @Test
    void tamperedOrMalformedTokensAreRejected() {
        IssuedToken t = tokens.issue(tenant, "", List.of("read:*"), null);
        String s = t.token();
        char last = s.charAt(s.length() - 1);
        assertThat(tokens.verify(s.substring(0, s.length() - 1) + (last == 'a' ? 'b' : 'a'))).isEmpty();
        assertThat(tokens.verify(s + "a")).isEmpty();
        assertThat(tokens.verify("cx_" + t.info().id() + "_")).isEmpty();
        assertThat(tokens.verify("cx_" + t.info().id() + "_' OR 1=1 --aaaaaaaaaaaaaaaaaaaaaa")).isEmpty();
        assertThat(tokens.verify("")).isEmpty();
        assertThat(tokens.verify(null)).isEmpty();
    }

    @Test
    void badScopesAndPastExpiryAreNamed() {
        assertThatThrownBy(() -> tokens.issue(tenant, "x", List.of("read:metrics", "delete:*", "read:../x", "read"), Instant.now().minusSeconds(5)))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.errors())
                        .extracting(InvalidInputException.FieldError::field)
                        .containsExactly("scopes[1]", "scopes[2]", "scopes[3]", "expiresAt"));
        assertThatThrownBy(() -> tokens.issue(tenant, "x", List.of(), null)).isInstanceOf(InvalidInputException.class);
    }

    @Test
    void theSecretIsNowhereInTheDatabase() {
        IssuedToken t = tokens.issue(tenant, "scan me", List.of("read:*"), null);
        String secret = t.token().substring(20);
        tokens.verify(t.token());
        List<String> tables = jdbc.sql("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")
                .query(String.class).list();
        assertThat(tables).contains("api_tokens", "tenants", "users");
        String hexSecret = HexFormat.of().formatHex(secret.getBytes(StandardCharsets.UTF_8));
        for (String table : tables) {
            // every row of every table as text, bytea columns as hex
            List<Map<String, Object>> rows = jdbc.sql("SELECT row_to_json(x)::text AS j FROM \"" + table + "\" x").query().listOfRows();
            for (Map<String, Object> row : rows) {
                String text = String.valueOf(row.get("j"));
                assertThat(text).as("table " + table).doesNotContain(secret).doesNotContain(hexSecret);
            }
        }
    }
}
