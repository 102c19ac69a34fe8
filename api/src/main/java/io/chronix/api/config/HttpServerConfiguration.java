package io.chronix.api.config;

import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The embedded Tomcat's connector, where the service's answers need other than its defaults.
 *
 * <p>Each connection's socket write buffer is {@value #WRITE_BUFFER_BYTES} bytes, not Tomcat's
 * 8 KiB: Tomcat hands the kernel at most one buffer's worth per {@code write}, so a 57 KB answer
 * (400 series' newest points as JSON) took eight system calls, each a trip through the loopback or
 * network stack and, on the client's side, a wake-up; now it takes one. The buffer lives as long as
 * the connection (heap, allocated when the connection is accepted): 64 KiB per open connection.
 */
@Configuration(proxyBeanMethods = false)
class HttpServerConfiguration {

    static final int WRITE_BUFFER_BYTES = 64 * 1024;

    @Bean
    TomcatConnectorCustomizer socketWriteBuffer() {
        return connector -> {
            if (!connector.setProperty("socket.appWriteBufSize", Integer.toString(WRITE_BUFFER_BYTES))) {
                throw new IllegalStateException("the web server's connector has no socket.appWriteBufSize setting [protocol="
                        + connector.getProtocolHandlerClassName() + "]");
            }
        };
    }
}
