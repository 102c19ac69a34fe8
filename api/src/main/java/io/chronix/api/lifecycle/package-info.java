/**
 * The data lifecycle of the service: the delete endpoint ({@code POST /api/v1/namespaces/{ns}/delete},
 * scope {@code admin}), the rollup endpoints ({@code …/rollups}, scope {@code admin}; definitions,
 * state and materialisation live in each namespace's engine) and the periodic pass that enforces each open namespace's retention and the
 * process-wide disk budget ({@code chronix.engine.disk-budget}).
 *
 * <p>Threading: the controller is stateless; the pass runs on Spring's scheduler, one at a time.
 * Nullness: nothing here accepts or returns {@code null} unless its Javadoc says so.
 */
package io.chronix.api.lifecycle;
