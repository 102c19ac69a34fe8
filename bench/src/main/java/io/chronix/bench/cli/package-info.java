/**
 * The command line: {@link io.chronix.bench.cli.Bench} dispatches to the tools ({@code generate},
 * {@code load}, {@code query}, {@code e2e}, {@code peer}); {@link io.chronix.bench.cli.Options} parses
 * {@code --name value} flags. Each tool's flags are documented in its {@code usage} text and the
 * module README. A tool that fails prints why and exits non-zero.
 */
package io.chronix.bench.cli;
