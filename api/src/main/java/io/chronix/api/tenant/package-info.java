/**
 * The operator's tenant endpoints ({@code /api/v1/tenants/**}, operator token only) and the wiring
 * of the tenancy module into the application.
 */
package io.chronix.api.tenant;
