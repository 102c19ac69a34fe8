package io.chronix.engine;

/** What a crash-point test throws from a test hook to stand for the process dying there. */
final class SimulatedCrash extends RuntimeException {

    SimulatedCrash(String point) {
        super("simulated crash at " + point, null, false, false);
    }

    /** The innermost cause: the engine wraps what a hook throws. */
    static Throwable rootOf(Throwable e) {
        while (e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }
}
