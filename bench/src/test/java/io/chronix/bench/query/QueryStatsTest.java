package io.chronix.bench.query;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class QueryStatsTest {

    private static final QueryKind KIND = QueryKind.all().getFirst();

    @Test
    void serverCpuIsReportedPerTimedRunOrNotAtAll() {
        QueryStats known = new QueryStats(KIND, new long[]{3_000_000, 1_000_000, 2_000_000, 4_000_000}, 61, null, 20_000_000, -1);
        assertThat(known.serverCpuPerRun()).isEqualTo(5_000_000);
        assertThat(known.median()).isEqualTo(2_000_000);
        assertThat(new QueryStats(KIND, new long[]{1}, 1, null).serverCpuPerRun()).isEqualTo(-1);
        assertThat(new QueryStats(KIND, new long[0], 0, "refused", 0, -1).serverCpuPerRun()).isEqualTo(-1);
    }

    @Test
    void thePrintedTableCarriesTheServerCpuAndJitColumns() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        QueryRunner.print("chronix", List.of(
                new QueryStats(KIND, new long[]{2_000_000, 2_000_000}, 61, null, 15_000_000, 5_000_000),
                new QueryStats(KIND, new long[]{2_000_000}, 61, null, 7_500_000, -1),
                new QueryStats(KIND, new long[]{2_000_000}, 61, null)), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines.get(0)).contains("server cpu/q").contains("jit/q");
        assertThat(lines.get(1)).endsWith(" 7.50     2.50");
        assertThat(lines.get(2)).endsWith(" 7.50        -");
        assertThat(lines.get(3)).endsWith(" -        -");
    }
}
