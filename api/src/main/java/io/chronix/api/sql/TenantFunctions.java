package io.chronix.api.sql;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Which of DuckDB's functions tenant SQL may call, decided on the parse tree before anything runs
 * ({@link StatementAnalysis}). The sandbox's settings keep a statement from touching a file or the
 * network, but not from reading the instance itself: its settings ({@code duckdb_settings()},
 * {@code current_setting('secret_directory')}: the service user's home, among others), its
 * extensions, secrets, databases and temporary files, or from running SQL text the analysis never
 * saw ({@code query('…')}, {@code query_table('…')}, {@code json_execute_serialized_sql}).
 *
 * <ul>
 *   <li>Table functions (in {@code FROM}): only those that make rows out of their arguments —
 *       {@code range}, {@code generate_series}, {@code unnest}. Every other (DuckDB's catalog and
 *       {@code pragma_} functions, file readers, {@code query}) is refused: a list of what is
 *       allowed, because DuckDB adds table functions with each release.</li>
 *   <li>Other functions: any, except those that read the instance's settings, environment or
 *       catalog — {@code current_setting}, {@code getenv}, {@code which_secret},
 *       {@code json_execute_serialized_sql}, {@code query}, {@code query_table} and every
 *       {@code duckdb_…} and {@code pragma_…} function.</li>
 * </ul>
 * Names are compared case-insensitively and whatever schema or catalog qualifies them
 * ({@code system.main.current_setting} is {@code current_setting}).
 */
final class TenantFunctions {

    /** Table functions a tenant statement may read from. */
    static final Set<String> TABLE_FUNCTIONS = Set.of("range", "generate_series", "unnest");

    /** Functions refused wherever they appear, besides the prefixes below. */
    static final Set<String> REFUSED = Set.of("current_setting", "getenv", "which_secret", "json_execute_serialized_sql",
            "query", "query_table");

    private static final String[] REFUSED_PREFIXES = {"duckdb_", "pragma_"};

    private TenantFunctions() {
    }

    /** Why a table function of this name is refused, or empty if a tenant may read from it. */
    static Optional<String> refusedTableFunction(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (TABLE_FUNCTIONS.contains(n)) {
            return Optional.empty();
        }
        return Optional.of("table function '" + name + "' is not available: a query reads the namespace's measurements, "
                + "and of DuckDB's table functions only range, generate_series and unnest");
    }

    /** Why a (scalar, aggregate or window) function of this name is refused, or empty if it is not. */
    static Optional<String> refusedFunction(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        boolean refused = REFUSED.contains(n);
        for (String prefix : REFUSED_PREFIXES) {
            refused |= n.startsWith(prefix);
        }
        return refused
                ? Optional.of("function '" + name + "' is not available: it reads the server's settings, environment or catalog")
                : Optional.empty();
    }
}
