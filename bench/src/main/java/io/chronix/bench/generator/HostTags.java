package io.chronix.bench.generator;

import java.util.List;

/** The tags of one simulated host, fixed for its whole life (as in TSBS). */
public record HostTags(
        String hostname, String region, String datacenter, String rack, String os, String arch,
        String team, String service, String serviceVersion, String serviceEnvironment) {

    /** Tag values in the order of {@link TsbsValueSets#TAG_KEYS}. */
    public List<String> values() {
        return List.of(hostname, region, datacenter, rack, os, arch, team, service, serviceVersion,
                serviceEnvironment);
    }
}
