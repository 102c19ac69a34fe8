package io.chronix.tenancy.user;

import io.chronix.tenancy.InvalidInputException;
import io.chronix.tenancy.NameTakenException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Console users. Passwords are hashed with Spring Security's delegating encoder (bcrypt today; the
 * {@code {id}} prefix lets a later default take over without invalidating stored hashes).
 */
@Service
public class UserService {

    public static final int MIN_PASSWORD = 8;
    /** bcrypt reads at most 72 bytes; longer passwords would be silently truncated elsewhere. */
    public static final int MAX_PASSWORD_BYTES = 72;
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+\\.[^@\\s]+");

    private final JdbcClient jdbc;
    private final PasswordEncoder encoder = PasswordEncoderFactories.createDelegatingPasswordEncoder();

    UserService(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public PasswordEncoder encoder() {
        return encoder;
    }

    /** Checks e-mail and password as a pair; returns the normalised (lower-case) e-mail. */
    public static String check(String emailField, String email, String passwordField, String password) {
        List<InvalidInputException.FieldError> errors = new ArrayList<>();
        String normalised = email == null ? null : email.strip().toLowerCase(Locale.ROOT);
        if (normalised == null || normalised.isEmpty()) {
            errors.add(new InvalidInputException.FieldError(emailField, "is required"));
        } else if (normalised.length() > 254 || !EMAIL.matcher(normalised).matches()) {
            errors.add(new InvalidInputException.FieldError(emailField, "is not an e-mail address"));
        }
        if (password == null || password.isEmpty()) {
            errors.add(new InvalidInputException.FieldError(passwordField, "is required"));
        } else if (password.codePointCount(0, password.length()) < MIN_PASSWORD) {
            errors.add(new InvalidInputException.FieldError(passwordField, "must be at least " + MIN_PASSWORD + " characters"));
        } else if (password.getBytes(StandardCharsets.UTF_8).length > MAX_PASSWORD_BYTES) {
            errors.add(new InvalidInputException.FieldError(passwordField, "must be at most " + MAX_PASSWORD_BYTES + " bytes in UTF-8"));
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        return normalised;
    }

    /** Adds a user inside the caller's transaction; the e-mail must be checked and free. */
    @Transactional
    public UUID create(UUID tenant, String emailField, String email, String password) {
        boolean taken = jdbc.sql("SELECT 1 FROM users WHERE email = ?").param(email).query(Integer.class).optional().isPresent();
        if (taken) {
            throw new NameTakenException(emailField, email);
        }
        return jdbc.sql("INSERT INTO users (tenant_id, email, password_hash) VALUES (?, ?, ?) RETURNING id")
                .params(tenant, email, encoder.encode(password)).query(UUID.class).single();
    }

    /** The user of a live tenant with this e-mail (any case). */
    @Transactional(readOnly = true)
    public Optional<ConsoleUser> findByEmail(String email) {
        if (email == null) {
            return Optional.empty();
        }
        return jdbc.sql("""
                        SELECT u.id, u.tenant_id, t.name, u.email, u.password_hash FROM users u
                        JOIN tenants t ON t.id = u.tenant_id
                        WHERE u.email = ? AND t.deleted_at IS NULL""")
                .param(email.strip().toLowerCase(Locale.ROOT))
                .query((rs, n) -> new ConsoleUser(rs.getObject("id", UUID.class), rs.getObject("tenant_id", UUID.class),
                        rs.getString("name"), rs.getString("email"), rs.getString("password_hash")))
                .optional();
    }
}
