package io.chronix.api.console;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Counts failed console logins per account (e-mail, lower case) and per client address in fixed
 * windows that start with the first failure. A locked key refuses every attempt, right or wrong,
 * until its window ends, so guessing gains nothing from the lock's end being near. A success
 * clears the account's count, never the address's (one good account must not unlock an address
 * that is guessing others).
 *
 * <p>In memory, per process: enough for one node; a cluster gets N times the attempts. Memory is
 * bounded: expired windows are dropped when the map grows past {@value #SWEEP_AT} keys.
 *
 * <p>Threading: safe for concurrent use.
 */
final class LoginThrottle {

    static final int SWEEP_AT = 100_000;

    private record Window(long startNanos, int failures) {
    }

    private final int maxPerAccount;
    private final int maxPerAddress;
    private final long windowNanos;
    private final LongSupplier nanoTime;
    private final Map<String, Window> accounts = new ConcurrentHashMap<>();
    private final Map<String, Window> addresses = new ConcurrentHashMap<>();

    LoginThrottle(ConsoleLoginProperties p, LongSupplier nanoTime) {
        this.maxPerAccount = p.maxFailuresPerAccount();
        this.maxPerAddress = p.maxFailuresPerAddress();
        this.windowNanos = p.window().toNanos();
        this.nanoTime = nanoTime;
    }

    /** Empty if an attempt may go ahead; otherwise how long until it may. */
    Duration retryAfter(String email, String address) {
        long now = nanoTime.getAsLong();
        long wait = Math.max(wait(accounts, account(email), maxPerAccount, now), wait(addresses, address, maxPerAddress, now));
        return Duration.ofNanos(wait);
    }

    void failed(String email, String address) {
        long now = nanoTime.getAsLong();
        count(accounts, account(email), now);
        count(addresses, address, now);
    }

    void succeeded(String email) {
        accounts.remove(account(email));
    }

    private long wait(Map<String, Window> map, String key, int max, long now) {
        Window w = map.get(key);
        if (w == null || now - w.startNanos() >= windowNanos || w.failures() < max) {
            return 0;
        }
        return windowNanos - (now - w.startNanos());
    }

    private void count(Map<String, Window> map, String key, long now) {
        if (map.size() > SWEEP_AT) {
            map.values().removeIf(w -> now - w.startNanos() >= windowNanos);
        }
        map.compute(key, (k, w) -> w == null || now - w.startNanos() >= windowNanos ? new Window(now, 1) : new Window(w.startNanos(), w.failures() + 1));
    }

    private static String account(String email) {
        return email == null ? "" : email.strip().toLowerCase(Locale.ROOT);
    }
}
