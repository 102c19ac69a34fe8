package io.chronix.api.engine;

import io.chronix.api.archive.ColdTiers;
import io.chronix.api.namespace.NamespaceLocations;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The shared maintenance scheduler and the engine registry. Destruction runs in reverse: the
 * registry (flush and close every engine) before the scheduler it uses.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(EngineProperties.class)
class EngineConfiguration {

    @Bean(destroyMethod = "close")
    MaintenanceScheduler maintenanceScheduler(EngineProperties properties) {
        return properties.maintenanceThreads() == 0 ? MaintenanceScheduler.createDefault()
                : MaintenanceScheduler.create(properties.maintenanceThreads());
    }

    @Bean(destroyMethod = "close")
    EngineRegistry engineRegistry(NamespaceLocations locations, EngineProperties properties, MaintenanceScheduler scheduler,
                                  ColdTiers coldTiers) {
        // the identity unless the test-only system property chronix.test.inject-faults is set (InjectedFaults)
        return new EngineRegistry(locations, properties, scheduler, System::nanoTime, InjectedFaults.configHook(), coldTiers::create);
    }
}
