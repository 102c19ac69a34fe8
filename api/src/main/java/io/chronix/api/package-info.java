/**
 * The Chronix service: a Spring Boot application that puts the storage engine, the tenancy database
 * and the cold archive behind the HTTP API of {@code API.md}. Packages are by feature; controllers
 * are thin.
 */
package io.chronix.api;
