/**
 * Wires the cold tier: S3 when {@code chronix.cold.s3.endpoint} is set (checked at start-up), the
 * filesystem under {@code <data>/cold} otherwise; and its health component.
 */
package io.chronix.api.cold;
