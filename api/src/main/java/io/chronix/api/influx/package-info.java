/** The InfluxDB-compatible surface that clients and Telegraf expect: {@code /ping} now, the write endpoints later. */
package io.chronix.api.influx;
