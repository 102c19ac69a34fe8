/** Support shared by the service's in-process tests. */
package io.chronix.api.testing;
