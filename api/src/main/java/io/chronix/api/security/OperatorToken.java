package io.chronix.api.security;

import io.chronix.api.config.ChronixProperties;
import io.chronix.api.config.DataDirectory;
import io.chronix.api.config.StartupCheckException;
import io.chronix.tenancy.token.Sha256;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;

/**
 * The operator token: from {@code chronix.operator-token} when configured; otherwise generated at
 * first start (256 random bits), printed once, and kept in {@code <data>/operator-token} with mode
 * 0600, so the same token works after every restart.
 *
 * <p>Only a SHA-256 digest of the token stays in memory for comparison, compared in constant time.
 */
@Component
public class OperatorToken implements CredentialResolver {

    public static final String PREFIX = "cxop_";
    public static final String ROLE = "ROLE_OPERATOR";

    private static final Logger log = LoggerFactory.getLogger(OperatorToken.class);
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private final byte[] digest;
    private final Source source;

    /** Where the token came from, for logs and tests. */
    public enum Source { CONFIGURED, FILE, GENERATED }

    public OperatorToken(ChronixProperties properties, DataDirectory data) {
        String configured = properties.operatorToken();
        if (configured != null && !configured.isBlank()) {
            if (configured.strip().length() < 16) {
                throw new StartupCheckException("chronix.operator-token", "is shorter than 16 characters",
                        "Use a long random token (for example 32 random bytes in base64), or unset it to have one generated.");
            }
            this.digest = sha256(configured.strip());
            this.source = Source.CONFIGURED;
            return;
        }
        Path file = data.operatorTokenFile();
        try {
            if (Files.exists(file)) {
                String token = Files.readString(file, StandardCharsets.UTF_8).strip();
                if (token.isEmpty()) {
                    throw new StartupCheckException("chronix.data-dir", file + " is empty",
                            "Delete it to have a new operator token generated, or set chronix.operator-token.");
                }
                warnIfReadableByOthers(file);
                this.digest = sha256(token);
                this.source = Source.FILE;
            } else {
                String token = generate();
                writeOwnerOnly(file, token);
                this.digest = sha256(token);
                this.source = Source.GENERATED;
                // the one and only time the token is shown
                log.warn("Generated the operator token (shown once, also stored in {} with mode 0600): {}", file, token);
            }
        } catch (IOException e) {
            throw new StartupCheckException("chronix.data-dir", "cannot read or write " + file + " (" + e.getMessage() + ")",
                    "Make the data directory writable, or set chronix.operator-token.", e);
        }
    }

    public Source source() {
        return source;
    }

    @Override
    public Optional<Authentication> resolve(String credential) {
        if (!MessageDigest.isEqual(digest, sha256(credential))) {
            return Optional.empty();
        }
        return Optional.of(UsernamePasswordAuthenticationToken.authenticated(
                OperatorPrincipal.INSTANCE, null, AuthorityUtils.createAuthorityList(ROLE)));
    }

    private static String generate() {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    }

    /** Written to a temporary file that is 0600 from birth, then renamed: never briefly readable. */
    private static void writeOwnerOnly(Path file, String token) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        try {
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } catch (FileAlreadyExistsException e) {
            throw new IOException("temporary token file appeared concurrently: " + tmp, e);
        }
        Files.writeString(tmp, token + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void warnIfReadableByOthers(Path file) throws IOException {
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
        if (!OWNER_ONLY.containsAll(perms)) {
            log.warn("{} is readable by others ({}); it should be mode 0600", file, PosixFilePermissions.toString(perms));
        }
    }

    private static byte[] sha256(String s) {
        return Sha256.of(s);
    }
}
