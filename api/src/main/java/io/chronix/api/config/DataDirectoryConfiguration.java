package io.chronix.api.config;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class DataDirectoryConfiguration {

    @Bean(destroyMethod = "close")
    DataDirectory dataDirectory(ChronixProperties properties) {
        return DataDirectory.open(properties.dataDir());
    }
}
