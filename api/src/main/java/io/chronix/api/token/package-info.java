/** The tenant's token endpoints ({@code /api/v1/tokens}); verification itself is in {@code api.security}. */
package io.chronix.api.token;
