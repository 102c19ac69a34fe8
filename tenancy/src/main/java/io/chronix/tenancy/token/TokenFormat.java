package io.chronix.tenancy.token;

import java.security.SecureRandom;
import java.util.Optional;

/**
 * The token format {@code cx_<id>_<secret>}: a 16-character public id (80 random bits) and a
 * 32-character secret (160 random bits), both lower-case base32 ({@code a-z2-7}), so neither holds
 * the separator. The database keeps only the SHA-256 of the whole token: a fast hash is right for a
 * secret of this entropy (no dictionary to guess from), and it is compared in constant time.
 */
final class TokenFormat {

    static final String PREFIX = "cx_";
    static final int ID_LENGTH = 16;
    static final int SECRET_LENGTH = 32;
    private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();
    private static final SecureRandom RANDOM = new SecureRandom();

    private TokenFormat() {
    }

    record Parts(String id, String token) {
        @Override
        public String toString() {
            return "Parts[id=" + id + "]";
        }
    }

    static String newId() {
        return random(ID_LENGTH);
    }

    static String newToken(String id) {
        return PREFIX + id + "_" + random(SECRET_LENGTH);
    }

    /** The public id of a well-formed token; empty for anything else (no database lookup then). */
    static Optional<Parts> parse(String presented) {
        if (presented == null || presented.length() != PREFIX.length() + ID_LENGTH + 1 + SECRET_LENGTH
                || !presented.startsWith(PREFIX) || presented.charAt(PREFIX.length() + ID_LENGTH) != '_') {
            return Optional.empty();
        }
        for (int i = PREFIX.length(); i < presented.length(); i++) {
            if (i != PREFIX.length() + ID_LENGTH && !isBase32(presented.charAt(i))) {
                return Optional.empty();
            }
        }
        return Optional.of(new Parts(presented.substring(PREFIX.length(), PREFIX.length() + ID_LENGTH), presented));
    }

    static byte[] hash(String token) {
        return Sha256.of(token);
    }

    private static boolean isBase32(char c) {
        return (c >= 'a' && c <= 'z') || (c >= '2' && c <= '7');
    }

    private static String random(int length) {
        char[] out = new char[length];
        for (int i = 0; i < length; i++) {
            out[i] = ALPHABET[RANDOM.nextInt(ALPHABET.length)];
        }
        return new String(out);
    }
}
