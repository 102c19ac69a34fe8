package io.chronix.bench.query;

/** A target's answer differs from the reference answer; the message says where and how. */
public final class WrongAnswerException extends RuntimeException {
    public WrongAnswerException(String message) {
        super(message);
    }
}
