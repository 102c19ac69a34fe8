/** Black-box tests of the service shell: embedded defaults, external services, start-up checks. */
package io.chronix.it.foundation;
