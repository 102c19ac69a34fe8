/** {@code GET /api/v1/whoami}: who the bearer of the request's credentials is. */
package io.chronix.api.whoami;
