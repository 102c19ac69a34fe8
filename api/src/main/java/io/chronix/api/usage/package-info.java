/** {@code GET /api/v1/usage}: the tenant's usage against each quota. */
package io.chronix.api.usage;
