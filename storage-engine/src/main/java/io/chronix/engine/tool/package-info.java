/**
 * {@code chronix-tool}, the operator's command line for an engine's files ({@code wal dump|verify|
 * repair}); built as {@code storage-engine/target/chronix-tool.jar}. See {@code docs/operations.md}.
 * {@link io.chronix.engine.tool.WalReplayCheck} is what {@code wal verify} checks beyond the frames.
 *
 * <p>Threading: single-threaded command line. Nullness: non-null unless documented otherwise.
 */
package io.chronix.engine.tool;
