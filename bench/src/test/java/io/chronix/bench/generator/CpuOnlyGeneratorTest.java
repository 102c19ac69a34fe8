package io.chronix.bench.generator;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class CpuOnlyGeneratorTest {

    private static byte[] bytes(CpuOnlyConfig config) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        GenerateCommand.write(config, out);
        return out.toByteArray();
    }

    @Test
    void sameSeedGivesSameBytes() {
        CpuOnlyConfig config = CpuOnlyConfig.of(20, Duration.ofMinutes(30), 99, true);
        assertThat(bytes(config)).isEqualTo(bytes(config));
        CpuOnlyConfig floats = CpuOnlyConfig.of(20, Duration.ofMinutes(30), 99, false);
        assertThat(bytes(floats)).isEqualTo(bytes(floats));
    }

    @Test
    void otherSeedGivesOtherBytes() {
        assertThat(bytes(CpuOnlyConfig.of(5, Duration.ofMinutes(5), 1, true)))
                .isNotEqualTo(bytes(CpuOnlyConfig.of(5, Duration.ofMinutes(5), 2, true)));
    }

    /**
     * Pins the data set itself: published figures name a seed, so the bytes behind a seed must never
     * change by accident. If a deliberate change of the generator breaks this, update the digest and
     * say so in docs/benchmarks.md (older figures then used other data).
     */
    @Test
    void bytesOfAPinnedConfigurationNeverChange() throws Exception {
        byte[] data = bytes(CpuOnlyConfig.of(3, Duration.ofMinutes(1), 1, true));
        String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        assertThat(digest).isEqualTo(PINNED_DIGEST);
    }

    static final String PINNED_DIGEST = "251dc90a155f113b161f881d3e5f8a524ae423fffe6d40df215799d7c5ae4b24";

    @Test
    void linesFollowTsbsLayout() {
        CpuOnlyConfig config = CpuOnlyConfig.of(4, Duration.ofMinutes(1), 5, true);
        List<String> lines = new String(bytes(config), StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(4 * 6);
        assertThat(lines.getFirst()).matches("cpu,hostname=host_0,region=[a-z0-9-]+,datacenter=[a-z0-9-]+,rack=\\d+,"
                + "os=[A-Za-z0-9.]+,arch=x(64|86),team=[A-Z]+,service=\\d+,service_version=[01],"
                + "service_environment=(production|staging|test) "
                + "usage_user=\\d+i,usage_system=\\d+i,usage_idle=\\d+i,usage_nice=\\d+i,usage_iowait=\\d+i,"
                + "usage_irq=\\d+i,usage_softirq=\\d+i,usage_steal=\\d+i,usage_guest=\\d+i,usage_guest_nice=\\d+i "
                + "1451606400000000000");
        // all hosts per tick, in host order, then the next tick 10 s later
        assertThat(lines.get(3)).startsWith("cpu,hostname=host_3,");
        assertThat(lines.get(4)).startsWith("cpu,hostname=host_0,").endsWith(" 1451606410000000000");
    }

    @Test
    void tagsComeFromTsbsValueSetsAndStayFixedPerHost() {
        CpuOnlyGenerator generator = new CpuOnlyGenerator(CpuOnlyConfig.of(500, Duration.ofMinutes(1), 3, true));
        Set<String> regions = TsbsValueSets.REGIONS.stream().map(TsbsValueSets.Region::name).collect(Collectors.toSet());
        for (HostTags h : generator.dataset().hosts()) {
            TsbsValueSets.Region region = TsbsValueSets.REGIONS.stream().filter(r -> r.name().equals(h.region()))
                    .findFirst().orElseThrow();
            assertThat(region.datacenters()).contains(h.datacenter());
            assertThat(Integer.parseInt(h.rack())).isBetween(0, TsbsValueSets.RACKS - 1);
            assertThat(TsbsValueSets.OPERATING_SYSTEMS).contains(h.os());
            assertThat(TsbsValueSets.ARCHITECTURES).contains(h.arch());
            assertThat(TsbsValueSets.TEAMS).contains(h.team());
            assertThat(Integer.parseInt(h.service())).isBetween(0, TsbsValueSets.SERVICES - 1);
            assertThat(h.serviceVersion()).isIn("0", "1");
            assertThat(TsbsValueSets.SERVICE_ENVIRONMENTS).contains(h.serviceEnvironment());
        }
        // 500 hosts reach every region and every team: the draw covers the whole set
        assertThat(generator.dataset().hosts().stream().map(HostTags::region).collect(Collectors.toSet())).isEqualTo(regions);
        assertThat(generator.dataset().hosts().stream().map(HostTags::team).collect(Collectors.toSet()))
                .containsExactlyInAnyOrderElementsOf(TsbsValueSets.TEAMS);
        // the tags a host has in the lines are the dataset's, on every tick
        String text = new String(bytes(CpuOnlyConfig.of(500, Duration.ofMinutes(1), 3, true)), StandardCharsets.UTF_8);
        HostTags h7 = generator.dataset().hosts().get(7);
        String prefix = "cpu," + String.join(",", zip(TsbsValueSets.TAG_KEYS, h7.values())) + " ";
        assertThat(text.lines().filter(l -> l.startsWith("cpu,hostname=host_7,"))).hasSize(6).allMatch(l -> l.startsWith(prefix));
    }

    private static List<String> zip(List<String> keys, List<String> values) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            out.add(keys.get(i) + "=" + values.get(i));
        }
        return out;
    }

    @Test
    void walksStayClampedAndMoveBySmallSteps() {
        int hosts = 50;
        CpuOnlyConfig config = new CpuOnlyConfig(hosts, CpuOnlyConfig.TSBS_START, Duration.ofHours(6),
                CpuOnlyConfig.TSBS_INTERVAL, 11, false);
        double[][] previous = new double[10][];
        long[] counts = new long[3]; // at min, at max, total
        double[] maxStep = {0};
        new CpuOnlyGenerator(config).generate(new TickSink() {
            @Override
            public void tick(long t, double[][] values) {
                for (int f = 0; f < values.length; f++) {
                    for (int h = 0; h < hosts; h++) {
                        double v = values[f][h];
                        assertThat(v).isBetween(0.0, 100.0);
                        if (v == 0.0) {
                            counts[0]++;
                        }
                        if (v == 100.0) {
                            counts[1]++;
                        }
                        counts[2]++;
                        if (previous[f] != null) {
                            maxStep[0] = Math.max(maxStep[0], Math.abs(v - previous[f][h]));
                        }
                    }
                    previous[f] = values[f].clone();
                }
            }
        });
        // 6 h of 500 walks: some hit the bounds (the clamp is exercised), and a normal(0,1) step
        // beyond 7 sigma in 1 million draws would mean the steps are not N(0, 1)
        assertThat(counts[0]).isPositive();
        assertThat(counts[1]).isPositive();
        assertThat(counts[2]).isEqualTo(config.values());
        assertThat(maxStep[0]).isLessThan(7.0).isGreaterThan(3.0);
    }

    @Test
    void integerFieldsAreTruncatedWalks() {
        CpuOnlyConfig ints = CpuOnlyConfig.of(10, Duration.ofMinutes(10), 21, true);
        CpuOnlyConfig floats = CpuOnlyConfig.of(10, Duration.ofMinutes(10), 21, false);
        List<double[][]> a = capture(ints);
        List<double[][]> b = capture(floats);
        for (int t = 0; t < a.size(); t++) {
            for (int f = 0; f < 10; f++) {
                for (int h = 0; h < 10; h++) {
                    assertThat(a.get(t)[f][h]).isEqualTo(Math.floor(b.get(t)[f][h]));
                }
            }
        }
    }

    @Test
    void floatFieldsPrintExactlyAndWithoutExponent() {
        CpuOnlyConfig floats = CpuOnlyConfig.of(10, Duration.ofMinutes(10), 21, false);
        List<double[][]> values = capture(floats);
        List<String> lines = new String(bytes(floats), StandardCharsets.UTF_8).lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            assertThat(line).doesNotContain("E").doesNotContain("i,");
            String fields = line.split(" ")[1];
            String first = fields.split(",")[0];
            double printed = Double.parseDouble(first.substring("usage_user=".length()));
            assertThat(printed).isEqualTo(values.get(i / 10)[0][i % 10]);
        }
    }

    private static List<double[][]> capture(CpuOnlyConfig config) {
        List<double[][]> out = new ArrayList<>();
        new CpuOnlyGenerator(config).generate(new TickSink() {
            @Override
            public void tick(long t, double[][] values) {
                double[][] copy = new double[values.length][];
                for (int f = 0; f < values.length; f++) {
                    copy[f] = values[f].clone();
                }
                out.add(copy);
            }
        });
        return out;
    }
}
