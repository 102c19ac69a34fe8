/**
 * Data lifecycle on demand: {@code POST /api/v1/namespaces/{ns}/flush} and {@code …/compact}
 * (scope {@code admin}), answering what was done ({@link io.chronix.api.maintenance.MaintenanceController}).
 * The periodic passes run inside each engine on the shared scheduler; these endpoints only run one
 * now.
 *
 * <p>Threading: the controller is stateless; a request runs on its own (virtual) thread and holds a
 * lease on the namespace's engine while the engine works.
 */
package io.chronix.api.maintenance;
