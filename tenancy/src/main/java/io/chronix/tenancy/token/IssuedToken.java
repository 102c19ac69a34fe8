package io.chronix.tenancy.token;

/**
 * A newly created token with its secret, the only time the secret exists outside its holder.
 * {@link #toString()} leaves the token out, so logging the object leaks nothing.
 *
 * @param token {@code cx_<id>_<secret>}
 */
public record IssuedToken(TokenInfo info, String token) {

    @Override
    public String toString() {
        return "IssuedToken[info=" + info + ", token=cx_" + info.id() + "_…]";
    }
}
