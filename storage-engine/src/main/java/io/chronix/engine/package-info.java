/**
 * Chronix, the embedded time-series storage engine: one instance owns one namespace directory
 * (WAL, memtable, time-sharded columnar segments, catalog). This module depends on no Spring and on
 * no other Chronix module; the service and the cold archive build on the interfaces it defines.
 *
 * <p>Nullness: parameters and return values are non-null unless documented otherwise.
 */
package io.chronix.engine;
