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

    /** Query-time Arrow buffers: their native blocks are kept and reused, not unmapped after each query. */
    @Bean(destroyMethod = "close")
    BufferAllocator queryAllocator(QueryProperties p) {
        RecyclingMemory memory = new RecyclingMemory(p.recycledBytes().toBytes());
        return new RootAllocator(RootAllocator.configBuilder().maxAllocation(p.maxTotalBytes().toBytes())
                .allocationManagerFactory(memory).build()) {
            @Override
            public void close() {
                try {
                    super.close(); // throws if a query still holds memory
                } finally {
                    memory.trim();
                }
            }
        };
    }
}
