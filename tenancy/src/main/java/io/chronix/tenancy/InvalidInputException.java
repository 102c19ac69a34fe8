package io.chronix.tenancy;

import java.util.List;

/**
 * One or more input fields are not acceptable (syntax, range, format). Nothing was written.
 *
 * @see FieldError
 */
public final class InvalidInputException extends TenancyException {

    /** @param field the request field, as the client spelled it ({@code quotas.maxSeries}) */
    public record FieldError(String field, String message) {
    }

    private final List<FieldError> errors;

    public InvalidInputException(String field, String message) {
        this(List.of(new FieldError(field, message)));
    }

    public InvalidInputException(List<FieldError> errors) {
        super("invalid input " + errors);
        if (errors.isEmpty()) {
            throw new IllegalArgumentException("an InvalidInputException needs at least one field error");
        }
        this.errors = List.copyOf(errors);
    }

    public List<FieldError> errors() {
        return errors;
    }
}
