package io.chronix.api.query;

import io.chronix.api.config.DataDirectory;
import io.chronix.api.engine.EngineProperties;
import io.chronix.api.sql.SqlSandbox;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.util.unit.DataSize;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** The startup warm-up: every shape answers, its engine leaves nothing behind, the bounds hold. */
class QueryWarmUpTest {

    @TempDir Path dir;
    MaintenanceScheduler scheduler;
    BufferAllocator allocator;
    SqlSandbox sandbox;
    DataDirectory data;
    MeterRegistry meters;
    QueryService service;

    @BeforeEach
    void setUp() {
        scheduler = MaintenanceScheduler.create(1);
        allocator = new RootAllocator();
        sandbox = SqlSandbox.open(new SqlSandbox.Limits(2, 1L << 30));
        data = DataDirectory.open(dir.resolve("data"));
        meters = new SimpleMeterRegistry();
        DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
        beans.registerSingleton("meters", meters);
        // the warm-up never asks for a namespace's engine or a tenant's quotas: nothing to offer either
        service = new QueryService(sandbox, allocator, beans.getBeanProvider(NamespaceTables.class), null,
                properties(2000, Duration.ofSeconds(20)), beans.getBeanProvider(MeterRegistry.class));
    }

    @AfterEach
    void tearDown() {
        service.close();
        sandbox.close();
        data.close();
        scheduler.close();
        assertThat(allocator.getAllocatedMemory()).as("Arrow memory held after the warm-up").isZero();
        allocator.close();
    }

    static QueryProperties properties(int queries, Duration time) {
        return new QueryProperties(2, DataSize.ofGigabytes(1), DataSize.ofGigabytes(1), DataSize.ofGigabytes(4),
                DataSize.ofMegabytes(0), 1, queries, time, 0, 0, 64, 10);
    }

    QueryWarmUp warmUp(int queries, Duration time) {
        return new QueryWarmUp(service, data, EngineProperties.defaults(), scheduler, properties(queries, time));
    }

    @Test
    void everyShapeAnswersRowsAndTheEngineIsRemoved() throws Exception {
        QueryWarmUp.Report r = warmUp(2000, Duration.ofSeconds(20)).run(40, Duration.ofMinutes(2));

        assertThat(r.queries()).isEqualTo(40);
        assertThat(r.rowsByShape()).as("rows answered by each shape").hasSize(10);
        for (int i = 0; i < r.rowsByShape().length; i++) {
            assertThat(r.rowsByShape()[i]).as("rows of shape %d", i).isPositive();
        }
        Timer ok = meters.find("chronix.query.requests").tag("namespace", QueryWarmUp.NAMESPACE_TAG).tag("outcome", "ok").timer();
        assertThat(ok).isNotNull();
        assertThat(ok.count()).isEqualTo(40);
        assertThat(data.warmUp()).doesNotExist();
        assertThat(data.namespaces()).as("no namespace's directory").doesNotExist();
    }

    @Test
    void answersAlikeAcrossTheReopensOfItsEngine() throws Exception {
        // reopened before queries 100 and 400: the same shapes answer the same data after each
        QueryWarmUp.Report r = warmUp(2000, Duration.ofSeconds(20)).run(420, Duration.ofMinutes(2));

        assertThat(r.queries()).isEqualTo(420);
        for (int i = 0; i < r.rowsByShape().length; i++) {
            assertThat(r.rowsByShape()[i]).as("rows of shape %d", i).isPositive();
        }
        Timer failed = meters.find("chronix.query.requests").tag("namespace", QueryWarmUp.NAMESPACE_TAG).tag("outcome", "error").timer();
        assertThat(failed == null ? 0 : failed.count()).as("no query failed").isZero();
        assertThat(data.warmUp()).doesNotExist();
    }

    @Test
    @org.junit.jupiter.api.Timeout(120) // a warm-up that did not stop would run its queries for hours
    void stopsAtItsTimeBudget() throws Exception {
        long started = System.nanoTime();
        assertThat(warmUp(2000, Duration.ofSeconds(20)).run(0, Duration.ofMinutes(1)).queries()).isZero();
        Duration fillAlone = Duration.ofNanos(System.nanoTime() - started);

        started = System.nanoTime();
        QueryWarmUp.Report r = warmUp(2000, Duration.ofSeconds(20)).run(Integer.MAX_VALUE, Duration.ofMillis(300));
        // the budget counts from the start, filling the engine included (on a busy machine the fill
        // alone can spend it, and then no query runs): the run ends about a fill and the budget later
        assertThat(r.queries()).isLessThan(Integer.MAX_VALUE);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(fillAlone.multipliedBy(3).plusSeconds(10));
        assertThat(data.warmUp()).doesNotExist();
    }

    @Test
    void aDirectoryLeftByACrashIsReplaced() throws Exception {
        Files.createDirectories(data.warmUp().resolve("stale"));
        Files.writeString(data.warmUp().resolve("stale/file"), "left by a killed start");

        QueryWarmUp.Report r = warmUp(2000, Duration.ofSeconds(20)).run(10, Duration.ofMinutes(1));

        assertThat(r.queries()).isEqualTo(10);
        assertThat(Arrays.stream(r.rowsByShape()).sum()).isPositive();
        assertThat(data.warmUp()).doesNotExist();
    }

    @Test
    void offRunsNothing() {
        warmUp(0, Duration.ofSeconds(20)).start();
        warmUp(2000, Duration.ZERO).start();

        assertThat(data.warmUp()).doesNotExist();
        assertThat(meters.find("chronix.query.requests").timer()).isNull();
    }

    @Test
    void aFailureIsLoggedAndStartupGoesOn() {
        sandbox.close(); // every query now fails

        warmUp(10, Duration.ofSeconds(20)).start();

        assertThat(meters.find("chronix.query.requests").tag("namespace", QueryWarmUp.NAMESPACE_TAG).timers())
                .as("it stops at the first failure").singleElement()
                .satisfies(t -> assertThat(t.getId().getTag("outcome")).isNotEqualTo("ok"))
                .satisfies(t -> assertThat(t.count()).isEqualTo(1));
        assertThat(data.warmUp()).doesNotExist();
    }
}
