/**
 * A namespace directory's {@code IDENTITY} file: which namespace and which owner (tenant) the
 * directory belongs to, written once when the directory is made and checked before every open, so
 * a directory is never served to anyone but the namespace that made it. Format:
 * {@code docs/format/identity.md}.
 *
 * <p>Threading: stateless; callers serialise opening one directory. Nullness: nothing here takes or
 * returns null.
 */
package io.chronix.engine.identity;
