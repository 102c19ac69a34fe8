package io.chronix.api.sql;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.chronix.api.sql.SqlFixture.SECOND;
import static io.chronix.api.sql.SqlFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Every way a query can end gives back all of its memory: answered, refused for its Arrow memory,
 * failed in DuckDB (at bind time and while it runs, DuckDB's own memory limit included), cancelled
 * while it runs, and abandoned by its reader after the first batch of the answer. After each, the
 * query's allocator (a child of the fixture's root, as {@code QueryService} makes one per query)
 * and the root hold nothing, and DuckDB holds no more memory than before the query.
 */
class QueryMemoryTest {

    private static final int HOSTS = 40;
    private static final int POINTS = 5_000;

    @TempDir Path dir;
    SqlFixture f;

    @BeforeEach
    void open() {
        f = new SqlFixture(dir);
        for (int h = 0; h < HOSTS; h++) {
            String host = "host_" + h;
            f.write(b -> {
                for (int p = 0; p < POINTS; p++) {
                    b.beginPoint("cpu", T0 + p * SECOND).tag("hostname", host)
                            .floatField("usage_user", p % 97).floatField("usage_system", p % 13).integerField("n", p).endPoint();
                }
            });
        }
    }

    @AfterEach
    void close() {
        f.close(); // throws if the root still holds memory
    }

    /** Runs {@code sql} under a child allocator of {@code limit} bytes, reading at most {@code batches} batches of the answer. */
    private Throwable run(String sql, long limit, int batches) {
        BufferAllocator child = f.allocator.newChildAllocator("query", 0, limit);
        Throwable thrown;
        try (child) {
            thrown = catchThrowable(() -> {
                try (SqlQuery q = SqlQuery.prepare(f.sandbox, f.tables(), sql, child)) {
                    ArrowReader r = q.execute();
                    for (int i = 0; i < batches && r.loadNextBatch(); i++) {
                        assertThat(r.getVectorSchemaRoot().getRowCount()).isPositive();
                    }
                }
            });
            assertThat(child.getAllocatedMemory()).as("the query's allocator after: %s", sql).isZero();
        }
        assertThat(f.allocator.getAllocatedMemory()).as("the root after: %s", sql).isZero();
        return thrown;
    }

    private long duckDbBytes() throws Exception {
        // DuckDB's buffer manager, as the parallel instance counts it (a fresh connection sees the same instance)
        try (var c = f.sandbox.connect(Long.MAX_VALUE); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT coalesce(sum(memory_usage_bytes), 0) FROM duckdb_memory()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void anAnsweredQueryLeavesNothing() throws Exception {
        long before = duckDbBytes();
        assertThat(run("SELECT hostname, max(usage_user) FROM cpu GROUP BY ALL", Long.MAX_VALUE, Integer.MAX_VALUE)).isNull();
        assertThat(run("SELECT * FROM cpu QUALIFY row_number() OVER (PARTITION BY hostname ORDER BY time DESC) = 1",
                Long.MAX_VALUE, Integer.MAX_VALUE)).isNull();
        assertThat(duckDbBytes()).isLessThanOrEqualTo(before);
    }

    @Test
    void aQueryOverItsArrowBoundLeavesNothing() {
        // bounds that fail at the first batch, and after some batches were built
        for (long limit : new long[] {1 << 20, 6 << 20, 12 << 20}) {
            assertThat(run("SELECT * FROM cpu ORDER BY time", limit, Integer.MAX_VALUE)).isInstanceOf(OutOfMemoryException.class);
            assertThat(run("SELECT * FROM cpu x JOIN cpu y USING (hostname, time)", limit, Integer.MAX_VALUE))
                    .isInstanceOf(OutOfMemoryException.class);
        }
    }

    @Test
    void aQueryDuckDbRefusesOrFailsLeavesNothing() throws Exception {
        long before = duckDbBytes();
        assertThat(run("SELECT no_such_column FROM cpu", Long.MAX_VALUE, 1)).isInstanceOf(SqlErrorException.class);
        assertThat(run("SELECT CAST(hostname AS INTEGER) FROM cpu", Long.MAX_VALUE, 1)).isInstanceOf(SqlErrorException.class);
        assertThat(run("SELECT count(*) FROM cpu x, cpu y WHERE x.n = 4999 AND CAST(y.hostname AS INTEGER) > 0", Long.MAX_VALUE, 1))
                .isInstanceOf(SqlErrorException.class);
        assertThat(duckDbBytes()).isLessThanOrEqualTo(before);
    }

    @Test
    void aQueryOverDuckDbsMemoryLimitLeavesNothing() throws Exception {
        f.sandbox.close();
        f.sandbox = SqlSandbox.open(new SqlSandbox.Limits(2, 16L << 20));
        long before = duckDbBytes();
        for (String sql : new String[] {"SELECT *, repeat(hostname, 40) AS k FROM cpu ORDER BY k, time",
                "SELECT *, repeat(hostname, 40) AS k FROM cpu QUALIFY row_number() OVER (PARTITION BY k ORDER BY time DESC) = 1",
                "SELECT x.*, repeat(y.hostname, 40) AS k FROM cpu x JOIN cpu y USING (n) ORDER BY k"}) {
            Throwable t = run(sql, Long.MAX_VALUE, 1);
            assertThat(t).as(sql).isInstanceOf(SqlErrorException.class);
            assertThat(((SqlErrorException) t).errorType()).as(sql).isEqualTo("Out of Memory Error");
        }
        assertThat(duckDbBytes()).isLessThanOrEqualTo(before);
    }

    @Test
    void aCancelledQueryLeavesNothing() throws Exception {
        long before = duckDbBytes();
        BufferAllocator child = f.allocator.newChildAllocator("query", 0, Long.MAX_VALUE);
        try (child) {
            // a cross join DuckDB works on for minutes, cancelled while it runs
            SqlQuery q = SqlQuery.prepare(f.sandbox, f.tables(), "SELECT count(*) FROM cpu x, cpu y WHERE x.usage_user + y.usage_user > 100", child);
            CompletableFuture<Void> cancel = CompletableFuture.runAsync(() -> {
                try {
                    Thread.sleep(300);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                q.cancel();
            });
            try (q) {
                assertThatThrownBy(() -> q.execute().loadNextBatch()).isInstanceOf(QueryCancelledException.class);
            }
            cancel.get(10, TimeUnit.SECONDS);
            assertThat(child.getAllocatedMemory()).isZero();
        }
        assertThat(f.allocator.getAllocatedMemory()).isZero();
        assertThat(duckDbBytes()).isLessThanOrEqualTo(before);
    }

    @Test
    void anAnswerAbandonedAfterItsFirstBatchLeavesNothing() throws Exception {
        long before = duckDbBytes();
        assertThat(run("SELECT * FROM cpu", Long.MAX_VALUE, 1)).isNull();
        assertThat(run("SELECT x.time, y.n FROM cpu x JOIN cpu y USING (hostname, time)", Long.MAX_VALUE, 1)).isNull();
        assertThat(run("WITH c AS (SELECT * FROM cpu WHERE n > 10) SELECT * FROM c", Long.MAX_VALUE, 1)).isNull();
        assertThat(duckDbBytes()).isLessThanOrEqualTo(before);
    }

    @Test
    void aLeakFreeQueryFollowsEveryFailure() {
        for (int i = 0; i < 3; i++) {
            run("SELECT * FROM cpu ORDER BY time", 1 << 20, Integer.MAX_VALUE);
            run("SELECT CAST(hostname AS INTEGER) FROM cpu", Long.MAX_VALUE, 1);
        }
        assertThat(run("SELECT count(*) FROM cpu WHERE usage_user >= 0", 64L << 20, 1)).isNull();
    }
}
