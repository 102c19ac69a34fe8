/**
 * RFC 9457 error answers: every error the service gives is {@code application/problem+json} with
 * {@code type}, {@code title}, {@code status}, {@code detail} and a stable {@code errorId}; no stack
 * trace or internal detail ever reaches a response.
 */
package io.chronix.api.error;
