/**
 * File-system plumbing shared by the engine's components: the directory {@code LOCK}, and
 * {@link io.chronix.engine.io.FileIO}, the one injectable seam all engine file I/O goes through, so
 * that tests can inject failing fsync, a full disk, short writes and simulated power loss.
 *
 * <p>Threading: documented per type. Nullness: non-null unless documented otherwise.
 */
package io.chronix.engine.io;
