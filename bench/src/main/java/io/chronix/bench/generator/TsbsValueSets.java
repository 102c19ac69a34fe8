package io.chronix.bench.generator;

import java.util.List;

/**
 * The tag keys, tag value sets and field names of TSBS's "devops"/"cpu-only" use case, as TSBS
 * defines them (its {@code pkg/data/usecases/devops/host.go} and {@code cpu.go}). Keeping the
 * exact sets matters: cardinalities (9 regions, 2–4 datacenters per region, 100 racks, 20 services,
 * ...) shape dictionary sizes, series counts and GROUP BY costs, so figures stay comparable with
 * published TSBS results.
 */
public final class TsbsValueSets {
    private TsbsValueSets() {
    }

    public static final String MEASUREMENT = "cpu";

    /** Tag keys in TSBS's emission order (hostname first). */
    public static final List<String> TAG_KEYS = List.of(
            "hostname", "region", "datacenter", "rack", "os", "arch", "team",
            "service", "service_version", "service_environment");

    /** The ten cpu fields in TSBS's order. */
    public static final List<String> FIELDS = List.of(
            "usage_user", "usage_system", "usage_idle", "usage_nice", "usage_iowait",
            "usage_irq", "usage_softirq", "usage_steal", "usage_guest", "usage_guest_nice");

    /** A region and its datacenters. */
    public record Region(String name, List<String> datacenters) {
    }

    public static final List<Region> REGIONS = List.of(
            new Region("us-east-1", List.of("us-east-1a", "us-east-1b", "us-east-1c", "us-east-1e")),
            new Region("us-west-1", List.of("us-west-1a", "us-west-1b")),
            new Region("us-west-2", List.of("us-west-2a", "us-west-2b", "us-west-2c")),
            new Region("eu-west-1", List.of("eu-west-1a", "eu-west-1b", "eu-west-1c")),
            new Region("eu-central-1", List.of("eu-central-1a", "eu-central-1b")),
            new Region("ap-southeast-1", List.of("ap-southeast-1a", "ap-southeast-1b")),
            new Region("ap-southeast-2", List.of("ap-southeast-2a", "ap-southeast-2b")),
            new Region("ap-northeast-1", List.of("ap-northeast-1a", "ap-northeast-1c")),
            new Region("sa-east-1", List.of("sa-east-1a", "sa-east-1b", "sa-east-1c")));

    public static final List<String> TEAMS = List.of("SF", "NYC", "LON", "CHI");
    public static final List<String> OPERATING_SYSTEMS = List.of("Ubuntu16.10", "Ubuntu16.04LTS", "Ubuntu15.10");
    public static final List<String> ARCHITECTURES = List.of("x64", "x86");
    public static final List<String> SERVICE_ENVIRONMENTS = List.of("production", "staging", "test");

    /** Racks are "0".."99" (per datacenter in TSBS's words, drawn independently of it). */
    public static final int RACKS = 100;
    /** Services are "0".."19". */
    public static final int SERVICES = 20;
    /** Service versions are "0" and "1". */
    public static final int SERVICE_VERSIONS = 2;

    /** Field values are clamped to [FIELD_MIN, FIELD_MAX]. */
    public static final double FIELD_MIN = 0.0;
    public static final double FIELD_MAX = 100.0;

    public static String hostname(int index) {
        return "host_" + index;
    }
}
