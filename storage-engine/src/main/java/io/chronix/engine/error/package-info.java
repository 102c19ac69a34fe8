/**
 * The engine's exceptions: a small family of unchecked types, each carrying the context a reader
 * needs (path, offset, key), with messages shaped {@code what [key=value, ...]}.
 *
 * <p>Threading: immutable. Nullness: fields are non-null unless documented otherwise.
 */
package io.chronix.engine.error;
