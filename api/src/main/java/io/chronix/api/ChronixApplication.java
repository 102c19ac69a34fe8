package io.chronix.api;

import io.chronix.api.config.ChronixProperties;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/** Entry point: {@code java -jar chronix.jar [--server.port=…] [--chronix.data-dir=…]}. */
@SpringBootApplication
@EnableConfigurationProperties(ChronixProperties.class)
public class ChronixApplication {

    public static void main(String[] args) {
        SpringApplication.run(ChronixApplication.class, args);
    }
}
