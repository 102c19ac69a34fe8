package io.chronix.bench.generator;

import java.util.ArrayList;
import java.util.List;

/**
 * Generates TSBS's cpu-only data set. Each field of each host is a clamped random walk, as TSBS's
 * {@code ClampedRandomWalkDistribution}: it starts uniform in [0, 100] and moves by a normal(0, 1)
 * step each tick, clamped to [0, 100]. The first tick emits the starting values (TSBS does the same).
 *
 * <p>Draw order, which fixes the bytes for a seed: for each host in order, its ten starting values
 * (field order) and then its tags (region, datacenter, rack, arch, os, service, service version,
 * service environment, team — TSBS's order); then, from the second tick on, for each host in order,
 * one step per field in field order. The generator is a pure function of its {@link CpuOnlyConfig}.
 */
public final class CpuOnlyGenerator {
    private final CpuOnlyConfig config;
    private final Dataset dataset;
    private final SplitMix64 random;
    /** state[host * FIELD_COUNT + field]: each walk's current (clamped) float state. */
    private final double[] state;
    private static final int FIELD_COUNT = TsbsValueSets.FIELDS.size();

    public CpuOnlyGenerator(CpuOnlyConfig config) {
        this.config = config;
        this.random = new SplitMix64(config.seed());
        this.state = new double[config.hosts() * FIELD_COUNT];
        List<HostTags> hosts = new ArrayList<>(config.hosts());
        for (int h = 0; h < config.hosts(); h++) {
            for (int f = 0; f < FIELD_COUNT; f++) {
                state[h * FIELD_COUNT + f] = random.nextDouble() * TsbsValueSets.FIELD_MAX;
            }
            hosts.add(drawTags(h));
        }
        this.dataset = new Dataset(config, hosts);
    }

    private HostTags drawTags(int index) {
        TsbsValueSets.Region region = TsbsValueSets.REGIONS.get(random.nextInt(TsbsValueSets.REGIONS.size()));
        String datacenter = region.datacenters().get(random.nextInt(region.datacenters().size()));
        String rack = Integer.toString(random.nextInt(TsbsValueSets.RACKS));
        String arch = pick(TsbsValueSets.ARCHITECTURES);
        String os = pick(TsbsValueSets.OPERATING_SYSTEMS);
        String service = Integer.toString(random.nextInt(TsbsValueSets.SERVICES));
        String serviceVersion = Integer.toString(random.nextInt(TsbsValueSets.SERVICE_VERSIONS));
        String environment = pick(TsbsValueSets.SERVICE_ENVIRONMENTS);
        String team = pick(TsbsValueSets.TEAMS);
        return new HostTags(TsbsValueSets.hostname(index), region.name(), datacenter, rack, os, arch, team,
                service, serviceVersion, environment);
    }

    private String pick(List<String> choices) {
        return choices.get(random.nextInt(choices.size()));
    }

    public Dataset dataset() {
        return dataset;
    }

    /** Runs the whole data set through {@code sink} ({@code open}, every tick, {@code close}). */
    public void generate(TickSink sink) {
        int hosts = config.hosts();
        double[][] values = new double[FIELD_COUNT][hosts];
        long ticks = config.ticks();
        long t = config.startNanos();
        long step = config.intervalNanos();
        boolean integers = config.integerFields();
        sink.open(dataset);
        for (long tick = 0; tick < ticks; tick++, t += step) {
            if (tick > 0) {
                advance();
            }
            for (int h = 0; h < hosts; h++) {
                int base = h * FIELD_COUNT;
                for (int f = 0; f < FIELD_COUNT; f++) {
                    double v = state[base + f];
                    // TSBS's ToPointAllInt64: int64(value), truncation toward zero (values are >= 0).
                    values[f][h] = integers ? (double) (long) v : v;
                }
            }
            sink.tick(t, values);
        }
        sink.close();
    }

    private void advance() {
        for (int i = 0; i < state.length; i++) {
            double v = state[i] + random.nextGaussian();
            if (v > TsbsValueSets.FIELD_MAX) {
                v = TsbsValueSets.FIELD_MAX;
            }
            if (v < TsbsValueSets.FIELD_MIN) {
                v = TsbsValueSets.FIELD_MIN;
            }
            state[i] = v;
        }
    }
}
