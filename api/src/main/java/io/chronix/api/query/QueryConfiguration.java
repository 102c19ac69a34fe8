package io.chronix.api.query;

import io.chronix.api.sql.SqlSandbox;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The shared locked-down SQL engine and the Arrow allocator queries draw from. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(QueryProperties.class)
class QueryConfiguration {

    @Bean(destroyMethod = "close")
    SqlSandbox querySandbox(QueryProperties p) {
        return SqlSandbox.open(new SqlSandbox.Limits(p.threads(), p.memoryLimit().toBytes()));
    }

    @Bean(destroyMethod = "close")
    BufferAllocator queryAllocator(QueryProperties p) {
        return new RootAllocator(p.maxTotalBytes().toBytes());
    }
}
