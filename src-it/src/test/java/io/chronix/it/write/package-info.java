/**
 * The write path against the real stack (the service jar as a child process, PostgreSQL): every
 * status code of API.md "Write", concurrent writers to several namespaces with idle close and
 * reopen, acknowledged writes surviving a kill, and Telegraf's wire format through
 * {@code /api/v2/write}. What was written is read back by opening the engine directories with
 * {@code Chronix} after the service stopped.
 */
package io.chronix.it.write;
