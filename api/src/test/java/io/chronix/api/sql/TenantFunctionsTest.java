package io.chronix.api.sql;

import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Tenant SQL cannot read the instance it runs on: its settings (paths among them), extensions,
 * secrets, databases, temporary files or environment, nor run SQL text the analysis did not see.
 * Each is refused before anything runs, naming the function at its position.
 */
class TenantFunctionsTest {

    @TempDir Path dir;
    SqlFixture f;

    @BeforeEach
    void open() {
        f = new SqlFixture(dir);
        f.write(b -> b.beginPoint("cpu", SqlFixture.T0).tag("host", "a").floatField("usage", 3.0).endPoint());
    }

    @AfterEach
    void close() {
        f.close();
    }

    private static Arguments refused(String sql, String function, int position) {
        return arguments(Named.of(sql, sql), function, position);
    }

    static Stream<Arguments> refusedStatements() {
        return Stream.of(
                refused("SELECT * FROM duckdb_settings()", "duckdb_settings", 14),
                refused("SELECT value FROM duckdb_settings() WHERE name = 'temp_directory'", "duckdb_settings", 18),
                refused("SELECT * FROM system.main.duckdb_settings()", "duckdb_settings", 14),
                refused("SELECT * FROM DuckDB_Settings()", "duckdb_settings", 14),
                refused("SELECT (SELECT value FROM duckdb_settings() WHERE name = 'home_directory')", "duckdb_settings", 26),
                refused("SELECT * FROM cpu, duckdb_settings()", "duckdb_settings", 19),
                refused("SELECT current_setting('temp_directory')", "current_setting", 7),
                refused("SELECT current_setting('secret_directory')", "current_setting", 7),
                refused("SELECT 'extension_directory'.current_setting()", "current_setting", 29),
                refused("SELECT system.main.current_setting('home_directory')", "current_setting", 7),
                refused("SELECT host FROM cpu WHERE host <> current_setting('TimeZone')", "current_setting", 35),
                refused("SELECT getenv('HOME')", "getenv", 7),
                refused("SELECT * FROM duckdb_extensions()", "duckdb_extensions", 14),
                refused("SELECT * FROM duckdb_secrets()", "duckdb_secrets", 14),
                refused("SELECT * FROM which_secret('s3://bucket/x', 's3')", "which_secret", 14),
                refused("SELECT * FROM duckdb_databases()", "duckdb_databases", 14),
                refused("SELECT * FROM duckdb_temporary_files()", "duckdb_temporary_files", 14),
                refused("SELECT * FROM pragma_version()", "pragma_version", 14),
                refused("SELECT * FROM pragma_database_size()", "pragma_database_size", 14),
                refused("SELECT * FROM query('SELECT * FROM duckdb_settings()')", "query", 14),
                refused("SELECT * FROM query_table('cpu')", "query_table", 14),
                refused("SELECT json_execute_serialized_sql(json_serialize_sql('SELECT 1'))", "json_execute_serialized_sql", 7),
                refused("SELECT * FROM read_csv('x.csv')", "read_csv", 14),
                refused("WITH s AS (SELECT * FROM duckdb_settings()) SELECT * FROM s", "duckdb_settings", 25),
                refused("SELECT 1 UNION ALL SELECT count(*) FROM pragma_platform()", "pragma_platform", 40),
                refused("SELECT max(usage) FILTER (WHERE current_setting('x') = '') FROM cpu", "current_setting", 32));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedStatements")
    void aFunctionThatReadsTheInstanceIsRefusedByNameAtItsPosition(String sql, String function, int position) {
        assertThatThrownBy(() -> f.rows(sql)).isInstanceOfSatisfying(SqlErrorException.class, e -> {
            assertThat(e.errorType()).isEqualTo("Permission Error");
            assertThat(e.getMessage()).contains("'" + function + "'").contains("not available");
            assertThat(e.position()).as("position").isEqualTo(position);
        });
    }

    @Test
    void aRefusedStatementIsRefusedAgainWhenAskedAgainOrWithOtherLiterals() {
        // a statement kept parsed, or answered from its literals' template, is analysed like the first time
        for (String setting : new String[]{"temp_directory", "temp_directory", "home_directory", "extension_directory"}) {
            assertThatThrownBy(() -> f.rows("SELECT current_setting('" + setting + "')")).isInstanceOf(SqlErrorException.class)
                    .hasMessageContaining("'current_setting'");
        }
    }

    @Test
    void functionsThatMakeRowsOrComputeValuesStillWork() {
        assertThat(f.rows("SELECT count(*) FROM range(10)")).containsExactly("10");
        assertThat(f.rows("SELECT sum(generate_series) FROM generate_series(1, 3)")).containsExactly("6");
        assertThat(f.rows("SELECT * FROM unnest([1, 2])")).containsExactly("1", "2");
        assertThat(f.rows("SELECT count(*) FROM cpu, range(2)")).containsExactly("2");
        assertThat(f.rows("SELECT upper(host), round(usage) FROM cpu")).containsExactly("A|3.0");
        assertThat(f.rows("SELECT count(*) FROM cpu WHERE time_bucket(INTERVAL 1 minute, time) <= TIMESTAMP '2100-01-01'")).containsExactly("1");
    }

    @Test
    void noSettingOfEitherInstanceNamesAPathOfTheServer() throws SQLException {
        String home = System.getProperty("user.home");
        String cwd = Path.of("").toAbsolutePath().toString();
        for (long input : new long[]{0, Long.MAX_VALUE}) {
            try (DuckDBConnection c = f.sandbox.connect(input); Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT name, value FROM duckdb_settings()")) {
                int settings = 0;
                while (r.next()) {
                    settings++;
                    String value = r.getString(2) == null ? "" : r.getString(2);
                    assertThat(value).as(r.getString(1)).doesNotContain(home).doesNotContain(cwd).doesNotContain(".duckdb");
                }
                assertThat(settings).as("the settings were read").isGreaterThan(50);
            }
        }
    }
}
