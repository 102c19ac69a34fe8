package io.chronix.api.query;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;

/**
 * Lowers the calling thread's CPU priority (raises its Linux nice value) by a step, so that when
 * the cores are all busy the scheduler favours the process's other threads over it. Java's own
 * thread priorities do nothing on Linux by default; on Linux every thread is a task with a nice
 * value of its own, set here with {@code setpriority(PRIO_PROCESS, gettid(), …)} through the
 * foreign function interface. Lowering one's own priority needs no privilege. Elsewhere, or if
 * the calls are missing, it does nothing.
 */
final class ThreadNice {

    private static final Logger log = LoggerFactory.getLogger(ThreadNice.class);
    private static final int PRIO_PROCESS = 0;
    private static final int MAX_NICE = 19;

    private static final MethodHandle GETTID;
    private static final MethodHandle GETPRIORITY;
    private static final MethodHandle SETPRIORITY;

    static {
        MethodHandle gettid = null;
        MethodHandle getpriority = null;
        MethodHandle setpriority = null;
        if (System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                gettid = linker.downcallHandle(libc.find("gettid").orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_INT));
                getpriority = linker.downcallHandle(libc.find("getpriority").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
                setpriority = linker.downcallHandle(libc.find("setpriority").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
            } catch (RuntimeException | LinkageError e) {
                log.debug("thread priorities unavailable: {}", e.toString());
                gettid = getpriority = setpriority = null;
            }
        }
        GETTID = gettid;
        GETPRIORITY = getpriority;
        SETPRIORITY = setpriority;
    }

    private ThreadNice() {
    }

    /**
     * Adds {@code step} to the calling platform thread's nice value (at most 19); returns the new
     * value, or -1 if it could not be set (not Linux, or the call failed).
     */
    static int lowerCurrentThread(int step) {
        if (SETPRIORITY == null || step <= 0) {
            return -1;
        }
        try {
            int tid = (int) GETTID.invokeExact();
            int current = (int) GETPRIORITY.invokeExact(PRIO_PROCESS, tid); // -1 is also a valid nice value: fine to add to
            int target = Math.min(MAX_NICE, current + step);
            int rc = (int) SETPRIORITY.invokeExact(PRIO_PROCESS, tid, target);
            return rc == 0 ? target : -1;
        } catch (Throwable e) {
            return -1;
        }
    }
}
