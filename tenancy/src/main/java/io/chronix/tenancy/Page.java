package io.chronix.tenancy;

/**
 * A window of a list: at most {@code limit} items after skipping {@code offset}.
 *
 * @param limit  1 to {@value #MAX_LIMIT}
 * @param offset 0 or more
 */
public record Page(int limit, int offset) {

    public static final int DEFAULT_LIMIT = 100;
    public static final int MAX_LIMIT = 1000;
    public static final Page FIRST = new Page(DEFAULT_LIMIT, 0);

    public Page {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new InvalidInputException("limit", "must be between 1 and " + MAX_LIMIT + ", got " + limit);
        }
        if (offset < 0) {
            throw new InvalidInputException("offset", "must be 0 or more, got " + offset);
        }
    }
}
