package io.chronix.archive.store;

import io.minio.errors.ErrorResponseException;
import io.minio.errors.InsufficientDataException;
import io.minio.errors.InternalException;
import io.minio.errors.ServerException;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * Retries of object-store calls: transient failures (no connection, a timeout, a truncated answer,
 * HTTP 5xx, 429 and S3's throttling codes) are retried up to {@code maxAttempts} in all with
 * exponential back-off and full jitter ({@code random(0, min(maxDelay, baseDelay × 2^attempt))});
 * everything else — a 4xx such as a missing key, denied access or a bad request — fails at once,
 * because asking again gets the same answer.
 *
 * @param maxAttempts attempts in all, at least 1 (1 = no retry)
 */
public record RetryPolicy(int maxAttempts, Duration baseDelay, Duration maxDelay) {

    /** 4 attempts, 100 ms doubling up to 2 s. */
    public static final RetryPolicy DEFAULT = new RetryPolicy(4, Duration.ofMillis(100), Duration.ofSeconds(2));
    public static final RetryPolicy NONE = new RetryPolicy(1, Duration.ZERO, Duration.ZERO);

    private static final Set<String> TRANSIENT_CODES = Set.of("SlowDown", "InternalError", "RequestTimeout", "ServiceUnavailable",
            "RequestTimeTooSkewed", "OperationAborted");

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1 [maxAttempts=" + maxAttempts + "]");
        }
        if (baseDelay.isNegative() || maxDelay.isNegative()) {
            throw new IllegalArgumentException("retry delays must not be negative");
        }
    }

    /** A call to the store that may throw what minio-java throws. */
    @FunctionalInterface
    public interface Call<T> {
        T run() throws Exception;
    }

    /**
     * Runs {@code call}, retrying transient failures.
     *
     * @param retries counts each retry (not the first attempt)
     * @throws Exception the last failure
     */
    public <T> T run(Call<T> call, LongAdder retries) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.run();
            } catch (Exception e) {
                if (attempt >= maxAttempts || !isTransient(e)) {
                    throw e;
                }
                retries.increment();
                long cap = Math.min(maxDelay.toMillis(), baseDelay.toMillis() << Math.min(attempt - 1, 20));
                if (cap > 0) {
                    try {
                        Thread.sleep(ThreadLocalRandom.current().nextLong(cap + 1));
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                        throw e;
                    }
                }
            }
        }
    }

    /** Whether asking again may succeed. */
    public static boolean isTransient(Throwable e) {
        if (e instanceof ErrorResponseException r) {
            int status = r.response() == null ? 0 : r.response().code();
            return status >= 500 || status == 429 || TRANSIENT_CODES.contains(r.errorResponse().code());
        }
        if (e instanceof ServerException s) {
            return s.statusCode() >= 500 || s.statusCode() == 429;
        }
        if (e instanceof InsufficientDataException) {
            return true; // the connection broke mid-body
        }
        if (e instanceof InternalException) {
            return false; // a bug or bad argument on our side
        }
        return e instanceof IOException || e.getCause() instanceof IOException;
    }
}
