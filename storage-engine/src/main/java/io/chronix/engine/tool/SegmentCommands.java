package io.chronix.engine.tool;

import io.chronix.engine.error.EngineException;
import io.chronix.engine.io.FileIO;
import io.chronix.engine.segment.ColumnStats;
import io.chronix.engine.segment.SegmentFormat;
import io.chronix.engine.segment.SegmentMeta;
import io.chronix.engine.segment.SegmentReader;
import io.chronix.engine.segment.encoding.Encodings;

import java.io.PrintStream;
import java.nio.file.Path;

/** {@code chronix-tool segment dump|verify FILE}. Opening verifies the file CRC; both commands then read every block. */
final class SegmentCommands {

    private SegmentCommands() {
    }

    static int run(String command, Path file, PrintStream out, PrintStream err, FileIO io) {
        if (!command.equals("dump") && !command.equals("verify")) {
            err.println("usage: chronix-tool segment dump|verify FILE");
            return ChronixTool.EXIT_USAGE;
        }
        if (!io.exists(file)) {
            err.println("no such file: " + file);
            return ChronixTool.EXIT_USAGE;
        }
        try (SegmentReader r = SegmentReader.open(io, file, false)) {
            if (command.equals("dump")) {
                dump(r, out);
            }
            r.verifyBlocks();
            SegmentMeta m = r.meta();
            out.println("ok: " + file + " (" + m.fileSize() + " bytes, " + m.header().rowCount() + " rows, "
                    + m.rowGroups().size() + " row groups, file crc " + hex(m.crc()) + " ok, every block crc ok)");
            return ChronixTool.EXIT_OK;
        } catch (EngineException e) {
            out.println("CORRUPT: " + e.getMessage());
            return ChronixTool.EXIT_CORRUPT;
        }
    }

    private static void dump(SegmentReader r, PrintStream out) {
        SegmentMeta m = r.meta();
        SegmentMeta.Header h = m.header();
        out.println("segment " + r.path());
        out.println("  version " + h.version() + ", flags " + h.flags() + ", measurement " + m.measurement());
        out.println("  rows " + h.rowCount() + ", columns " + h.columnCount() + ", series " + h.seriesCount()
                + ", time [" + h.minTime() + ", " + h.maxTime() + "], max wal sequence " + h.maxWalSequence());
        out.println("  file " + m.fileSize() + " bytes, crc32c " + hex(m.crc()) + ", zstd dictionary " + (r.hasZstdDictionary() ? "yes" : "no"));
        out.println("columns");
        for (SegmentMeta.Column c : m.columns()) {
            long stored = 0;
            for (SegmentMeta.RowGroup g : m.rowGroups()) {
                SegmentMeta.Block b = g.blocks().get(m.columnIndex(c.name()));
                stored += b.storedLength() + b.validityLength();
            }
            out.println("  " + c.name() + "\t" + c.role().name().toLowerCase() + (c.type() == null ? "" : " " + c.type().name().toLowerCase())
                    + (c.sortRank() >= 0 ? " sort#" + c.sortRank() : "") + "\t" + stored + " bytes ("
                    + String.format("%.3f", (double) stored / Math.max(1, h.rowCount())) + " B/value)\t" + stats(c.stats()));
        }
        out.println("row groups");
        for (int g = 0; g < m.rowGroups().size(); g++) {
            SegmentMeta.RowGroup rg = m.rowGroups().get(g);
            out.println("  #" + g + " rows " + rg.firstRow() + "+" + rg.rowCount() + " time [" + rg.minTime() + ", " + rg.maxTime() + "]");
            for (int c = 0; c < m.columns().size(); c++) {
                SegmentMeta.Block b = rg.blocks().get(c);
                out.println("    " + m.columns().get(c).name() + "\t" + Encodings.name(b.encoding()) + "\t"
                        + SegmentFormat.compressionName(b.compression()) + "\t@" + b.offset() + " stored " + b.storedLength()
                        + " encoded " + b.uncompressedLength() + (b.validityLength() > 0 ? " validity " + b.validityLength() : "")
                        + " nulls " + b.nullCount() + " crc " + hex(b.blockCrc()));
            }
        }
    }

    private static String stats(ColumnStats s) {
        StringBuilder sb = new StringBuilder("nulls " + s.nullCount() + ", distinct " + (s.distinctExact() ? "" : ">=") + s.distinct());
        if (s.hasMinMax()) {
            switch (s.kind()) {
                case FLOAT -> sb.append(", min ").append(s.minDouble()).append(", max ").append(s.maxDouble());
                case UNSIGNED -> sb.append(", min ").append(Long.toUnsignedString(s.min())).append(", max ").append(Long.toUnsignedString(s.max()));
                default -> sb.append(", min ").append(s.min()).append(", max ").append(s.max());
            }
        }
        switch (s.kind()) {
            case SIGNED, UNSIGNED -> sb.append(", sum ").append(s.exactSum());
            case FLOAT, BOOLEAN -> sb.append(", sum ").append(s.sum());
            default -> { }
        }
        if (s.nanCount() > 0) {
            sb.append(", NaN ").append(s.nanCount());
        }
        return sb.toString();
    }

    private static String hex(int v) {
        return String.format("%08x", v);
    }
}
