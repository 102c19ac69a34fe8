package io.chronix.tenancy.token;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * SHA-256 of a credential's UTF-8 bytes, as every request's authentication takes it (the operator
 * token's check and the tenant token cache each hash the presented credential).
 *
 * <p>Why a clone of one digest rather than {@code MessageDigest.getInstance} per call: the lookup
 * searches the security providers and builds the instance reflectively, about 1 % of a small
 * query's request thread; a clone copies a few dozen bytes of state.
 *
 * <p>Threading: safe; each call digests with its own clone.
 */
public final class Sha256 {

    private static final MessageDigest PROTOTYPE;

    static {
        try {
            PROTOTYPE = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    private Sha256() {
    }

    /** The 32-byte SHA-256 of {@code s} encoded as UTF-8. */
    public static byte[] of(String s) {
        MessageDigest sha;
        try {
            sha = (MessageDigest) PROTOTYPE.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the JDK's SHA-256 digest can be cloned", e);
        }
        return sha.digest(s.getBytes(StandardCharsets.UTF_8));
    }
}
