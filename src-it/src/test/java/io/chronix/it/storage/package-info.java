/**
 * The service jar on a failing disk: a really full file system (a small tmpfs mounted as the data
 * directory's {@code namespaces/}) and failing fsyncs (the test-only fault switch,
 * {@code -Dchronix.test.inject-faults}): the answers (507, 503), readiness, and recovery without a
 * restart, with nothing acknowledged lost and nothing refused brought back.
 */
package io.chronix.it.storage;
