package io.chronix.tenancy;

import java.util.regex.Pattern;

/**
 * The one name rule for tenants and namespaces: {@code [a-z0-9][a-z0-9_-]{0,62}}, ASCII only. The
 * database repeats it as a CHECK constraint. A name is only ever a key in the database; no path on
 * disk and no object key is built from one.
 */
public final class ResourceName {

    public static final String PATTERN = "[a-z0-9][a-z0-9_-]{0,62}";
    private static final Pattern VALID = Pattern.compile(PATTERN);

    private ResourceName() {
    }

    public static boolean isValid(String name) {
        return name != null && VALID.matcher(name).matches();
    }

    /** Returns the name, or throws naming {@code field} and what is wrong with it. */
    public static String check(String field, String name) {
        if (name == null || name.isEmpty()) {
            throw new InvalidInputException(field, "is required");
        }
        if (!isValid(name)) {
            throw new InvalidInputException(field, "must match " + PATTERN
                    + " (lower-case ASCII letters, digits, '_' and '-', at most 63 characters, starting with a letter or digit)");
        }
        return name;
    }
}
