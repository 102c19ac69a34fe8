package io.chronix.bench.generator;

import java.util.List;

/** The fixed part of a generated data set: its configuration and each host's tags. */
public record Dataset(CpuOnlyConfig config, List<HostTags> hosts) {
    public Dataset {
        hosts = List.copyOf(hosts);
    }
}
