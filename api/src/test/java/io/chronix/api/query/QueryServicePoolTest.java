package io.chronix.api.query;

import io.chronix.api.sql.SqlSandbox;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.util.unit.DataSize;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Queries on the query pool: a query that waits for a thread still times out at its own deadline,
 * and nothing of it is held once it answered, failed or timed out.
 */
class QueryServicePoolTest {

    static final String HEAVY = "SELECT count(*) FROM range(100000000000) a, range(10) b WHERE a.range * b.range = -1";

    QueryWebFixture.Engines engines;
    BufferAllocator allocator;
    SqlSandbox sandbox;
    MeterRegistry meters;
    QueryService service;

    @BeforeEach
    void setUp() {
        engines = new QueryWebFixture.Engines();
        allocator = new RootAllocator();
        sandbox = SqlSandbox.open(new SqlSandbox.Limits(2, 1L << 30));
        meters = new SimpleMeterRegistry();
        DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
        beans.registerSingleton("meters", meters);
        QueryProperties oneThread = new QueryProperties(2, DataSize.ofGigabytes(1), DataSize.ofGigabytes(1), DataSize.ofGigabytes(4),
                DataSize.ofMegabytes(0), 0, 1, 4, 10);
        service = new QueryService(sandbox, allocator, beans.getBeanProvider(NamespaceTables.class), null, oneThread,
                beans.getBeanProvider(MeterRegistry.class));
    }

    @AfterEach
    void tearDown() throws Exception {
        service.close();
        sandbox.close();
        engines.close();
        assertThat(allocator.getAllocatedMemory()).as("Arrow memory held after the queries").isZero();
        allocator.close();
    }

    private long run(Duration timeout, String sql) throws Exception {
        return service.execute("acme", "1", timeout, () -> engines.open(QueryWebFixture.ns(1, "m")), sql,
                (q, result) -> {
                    long rows = 0;
                    while (result.loadNextBatch()) {
                        rows += result.getVectorSchemaRoot().getRowCount();
                    }
                    return rows;
                });
    }

    private double gauge(String name) {
        return meters.get(name).gauge().value();
    }

    @Test
    void aQueryWaitingForAThreadTimesOutAtItsOwnDeadline() throws Exception {
        AtomicReference<Throwable> heavyOutcome = new AtomicReference<>();
        Thread heavy = Thread.ofVirtual().start(() -> {
            try {
                run(Duration.ofSeconds(30), HEAVY);
            } catch (Throwable t) {
                heavyOutcome.set(t);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (gauge("chronix.query.pool.running") < 1 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(gauge("chronix.query.pool.running")).as("the heavy statement holds the only thread").isEqualTo(1);

        assertThatThrownBy(() -> run(Duration.ofMillis(200), "SELECT 1")).isInstanceOf(QueryExceptions.Timeout.class);
        assertThat(heavy.isAlive()).as("the waiting query gave up before the heavy one ended").isTrue();
        assertThat(gauge("chronix.query.pool.waiting")).as("nothing waits for the pool after the timeout").isZero();

        service.close(); // abandons nothing running; the heavy statement is interrupted by its own deadline or here by the test's end
        heavy.interrupt();
        heavy.join(60_000);
        assertThat(heavy.isAlive()).isFalse();
        assertThat(heavyOutcome.get()).isNotNull();
    }

    @Test
    void aStatementAnswersThroughThePoolAndHoldsNothingAfterwards() throws Exception {
        assertThat(run(Duration.ofSeconds(30), "SELECT * FROM range(200000)")).isEqualTo(200_000);
        assertThat(run(Duration.ofSeconds(30), "SELECT 1")).isEqualTo(1);
        assertThatThrownBy(() -> run(Duration.ofSeconds(30), "SELEC 1")).isInstanceOf(io.chronix.api.sql.SqlErrorException.class);
        assertThatThrownBy(() -> run(Duration.ofMillis(100), HEAVY)).isInstanceOf(QueryExceptions.Timeout.class);
        assertThat(allocator.getAllocatedMemory()).isZero();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (gauge("chronix.query.pool.running") > 0 && System.nanoTime() < deadline) {
            Thread.sleep(1); // a pool thread counts itself idle just after it handed its job's outcome over
        }
        assertThat(gauge("chronix.query.pool.running")).isZero();
    }

    @Test
    void pastThePoolsQueueAQueryIsRefused() throws Exception {
        // one thread, four waiting: the sixth query at once is refused
        java.util.List<Thread> heavies = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            heavies.add(Thread.ofVirtual().start(() -> {
                try {
                    run(Duration.ofSeconds(3), HEAVY);
                } catch (Exception expected) {
                    // timed out
                }
            }));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (gauge("chronix.query.pool.waiting") < 4 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThatThrownBy(() -> run(Duration.ofSeconds(3), "SELECT 1")).isInstanceOf(QueryPool.Full.class);
        for (Thread t : heavies) {
            t.join(60_000);
        }
    }
}
