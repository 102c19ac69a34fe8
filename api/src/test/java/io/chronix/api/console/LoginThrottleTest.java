package io.chronix.api.console;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class LoginThrottleTest {

    private final AtomicLong now = new AtomicLong(0);
    private final LoginThrottle throttle = new LoginThrottle(new ConsoleLoginProperties(3, 5, Duration.ofMinutes(10)), now::get);

    @Test
    void anAccountIsLockedAfterItsFailuresUntilTheWindowEnds() {
        for (int i = 0; i < 3; i++) {
            assertThat(throttle.retryAfter("A@example.com", "10.0.0." + i)).isZero();
            throttle.failed("A@example.com", "10.0.0." + i);
        }
        // any address, any case of the e-mail
        assertThat(throttle.retryAfter("a@example.com", "10.9.9.9")).isEqualTo(Duration.ofMinutes(10));
        now.addAndGet(Duration.ofMinutes(4).toNanos());
        assertThat(throttle.retryAfter("a@example.com", "10.9.9.9")).isEqualTo(Duration.ofMinutes(6));
        now.addAndGet(Duration.ofMinutes(6).toNanos());
        assertThat(throttle.retryAfter("a@example.com", "10.9.9.9")).isZero();
    }

    @Test
    void anAddressIsLockedAfterItsFailuresAcrossAccounts() {
        for (int i = 0; i < 5; i++) {
            throttle.failed("user" + i + "@example.com", "192.0.2.1");
        }
        assertThat(throttle.retryAfter("fresh@example.com", "192.0.2.1")).isPositive();
        assertThat(throttle.retryAfter("fresh@example.com", "192.0.2.2")).isZero();
    }

    @Test
    void successClearsTheAccountButNotTheAddress() {
        throttle.failed("a@example.com", "192.0.2.1");
        throttle.failed("a@example.com", "192.0.2.1");
        throttle.succeeded("a@example.com");
        throttle.failed("a@example.com", "192.0.2.1");
        throttle.failed("a@example.com", "192.0.2.1");
        assertThat(throttle.retryAfter("a@example.com", "192.0.2.3")).isZero(); // 2 since the success, limit 3
        throttle.failed("b@example.com", "192.0.2.1");
        assertThat(throttle.retryAfter("c@example.com", "192.0.2.1")).isPositive(); // the address has 5
    }
}
