package io.chronix.engine.segment;

import io.chronix.engine.io.NioFileIO;
import io.chronix.engine.tool.ChronixTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class SegmentToolTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int tool(String... args) {
        out.reset();
        return ChronixTool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                NioFileIO.INSTANCE);
    }

    @Test
    void dumpShowsHeaderColumnsBlocksAndVerifyReportsDamageByExitStatus() throws Exception {
        SegmentFile file = SegmentFile.of(0, 1, 1);
        SegmentWriter.write(NioFileIO.INSTANCE, dir.resolve("tmp"), dir.resolve("segments"), file,
                new SegmentTestData(3, 4, 60).all(), SegmentWriterConfig.defaults().withRowGroupRows(100), 7);
        Path p = file.resolve(dir.resolve("segments"));
        assertThat(tool("segment", "dump", p.toString())).isEqualTo(ChronixTool.EXIT_OK);
        String dump = out.toString(StandardCharsets.UTF_8);
        assertThat(dump).contains("version " + SegmentFormat.VERSION, "measurement cpu", "series 4", "max wal sequence 7", "delta-of-delta",
                "dictionary", "row groups", "#2 rows 200+40", "nulls", "every block crc ok");
        assertThat(tool("segment", "verify", p.toString())).isEqualTo(ChronixTool.EXIT_OK);

        byte[] bytes = Files.readAllBytes(p);
        bytes[60] ^= 1;
        Files.write(p, bytes);
        assertThat(tool("segment", "verify", p.toString())).isEqualTo(ChronixTool.EXIT_CORRUPT);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("CORRUPT", "checksum mismatch", p.toString());
        assertThat(tool("segment", "verify", dir.resolve("missing.csx").toString())).isEqualTo(ChronixTool.EXIT_USAGE);
    }
}
