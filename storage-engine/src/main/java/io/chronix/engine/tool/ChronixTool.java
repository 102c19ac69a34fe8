package io.chronix.engine.tool;

import io.chronix.engine.error.EngineException;
import io.chronix.engine.io.DirectoryLock;
import io.chronix.engine.io.FileIO;
import io.chronix.engine.io.NioFileIO;
import io.chronix.engine.wal.WalMetrics;
import io.chronix.engine.wal.WalReader;
import io.chronix.engine.wal.WalRepair;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code chronix-tool}: offline inspection and repair of an engine's files. Commands:
 *
 * <pre>
 *   wal dump   DIR   one line per record: file, offset, seq, type, length, payload version, CRC ok
 *   wal verify DIR   frames, then whether replay can apply every record in order (WalReplayCheck):
 *                    exit 0 clean, 1 torn tail, 2 corrupt, unreadable or a record replay refuses,
 *                    3 records ahead of their Schema record (replay copes; written before the rule)
 *   wal repair DIR   cut a torn tail or everything from the first corruption on; report what went
 *   segment dump   FILE   header, row groups, columns with encoding, compression, sizes and statistics, CRC status
 *   segment verify FILE   exit 0 intact (every block read and decoded), 2 corrupt, foreign version or unreadable
 * </pre>
 *
 * DIR is a WAL directory, or a namespace directory holding one in {@code wal/}. Repair takes the
 * namespace's {@code LOCK}, so it refuses to run beside an engine that has the log open.
 */
public final class ChronixTool {

    public static final int EXIT_OK = 0;
    public static final int EXIT_TORN = 1;
    public static final int EXIT_CORRUPT = 2;
    /** {@code wal verify}: the frames are sound and the engine opens, but records precede the Schema records they need. */
    public static final int EXIT_OUT_OF_ORDER = 3;
    /** Findings printed by {@code wal verify}; the rest are counted. */
    static final int MAX_FINDINGS_PRINTED = 20;
    public static final int EXIT_USAGE = 64;

    private ChronixTool() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err, NioFileIO.INSTANCE));
    }

    /** Runs a command; returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err, FileIO io) {
        if (args.length == 3 && args[0].equals("segment")) {
            return SegmentCommands.run(args[1], Path.of(args[2]), out, err, io);
        }
        if (args.length != 3 || !args[0].equals("wal")) {
            return usage(err);
        }
        Path given = Path.of(args[2]);
        Path walDir = Files.isDirectory(given.resolve("wal")) ? given.resolve("wal") : given;
        if (!Files.isDirectory(walDir)) {
            err.println("not a directory: " + walDir);
            return EXIT_USAGE;
        }
        try {
            return switch (args[1]) {
                case "dump" -> dump(io, walDir, out);
                case "verify" -> verify(io, walDir, out);
                case "repair" -> repair(io, walDir, out);
                default -> usage(err);
            };
        } catch (EngineException e) {
            err.println("error: " + e.getMessage());
            return EXIT_CORRUPT;
        }
    }

    private static int usage(PrintStream err) {
        err.println("usage: chronix-tool wal dump|verify|repair DIR");
        err.println("       chronix-tool segment dump|verify FILE");
        return EXIT_USAGE;
    }

    private static int dump(FileIO io, Path dir, PrintStream out) {
        out.println("file\toffset\tseq\ttype\tlength\tpayload_version\tcrc");
        WalReader.Scan scan = WalReader.scan(io, dir, r -> out.println(r.file().getFileName() + "\t" + r.offset() + "\t"
                + r.sequence() + "\t" + r.type() + (r.compressed() ? "+lz4" : "") + "\t" + r.storedLength() + "\t1\tok"));
        WalReader.Damage d = scan.damage();
        if (d != null) {
            out.println(d.file().getFileName() + "\t" + d.offset() + "\t-\t-\t-\t-\tBAD (" + describe(d) + ")");
        }
        return status(scan);
    }

    private static int verify(FileIO io, Path dir, PrintStream out) {
        WalReader.Scan scan = WalReader.scan(io, dir, r -> { });
        WalReader.Damage d = scan.damage();
        out.println(scan.files().size() + " files, " + scan.records() + " intact records, last sequence " + scan.lastSequence());
        WalReplayCheck.Result check = WalReplayCheck.check(io, dir);
        out.println("replay check: " + check.checked() + " records above the WAL floor " + check.floor() + ", against "
                + (check.catalog() ? check.catalogDeclarations() + " catalog declarations" : "no catalog (none beside the WAL)"));
        if (d != null) {
            out.println(describe(d));
        }
        List<WalReplayCheck.Finding> findings = check.findings();
        for (int i = 0; i < findings.size() && i < MAX_FINDINGS_PRINTED; i++) {
            WalReplayCheck.Finding f = findings.get(i);
            out.println(f.kind().label + " in " + f.file() + " at offset " + f.offset() + ", sequence " + f.sequence() + ": " + f.what());
        }
        if (findings.size() > MAX_FINDINGS_PRINTED) {
            out.println("... and " + (findings.size() - MAX_FINDINGS_PRINTED) + " more");
        }
        if (check.blocksOpen()) {
            out.println("the engine refuses to open this log: replay cannot apply the records above");
        } else if (check.outOfOrder()) {
            out.println("the engine opens this log: replay applies each declaration its record needs from the later Schema record, or from the record's own types where none was logged");
        }
        if (d == null && findings.isEmpty()) {
            out.println("clean");
        }
        if (check.blocksOpen() || d != null && d.kind() == WalReader.DamageKind.CORRUPT) {
            return EXIT_CORRUPT;
        }
        return check.outOfOrder() ? EXIT_OUT_OF_ORDER : status(scan);
    }

    private static int repair(FileIO io, Path dir, PrintStream out) {
        Path owner = dir.getFileName() != null && dir.getFileName().toString().equals("wal") ? dir.getParent() : dir;
        try (DirectoryLock ignored = DirectoryLock.acquire(owner)) {
            WalRepair.Report report = WalRepair.repair(io, dir, new WalMetrics());
            if (!report.changed()) {
                out.println("clean: nothing to repair (" + report.keptRecords() + " records, last sequence "
                        + report.keptLastSequence() + ")");
                return EXIT_OK;
            }
            WalReader.Damage d = report.damage();
            out.println("repaired " + describe(d));
            out.println("kept " + report.keptRecords() + " records up to sequence " + report.keptLastSequence());
            out.println("dropped " + report.droppedBytes() + " bytes of " + d.file().getFileName() + " from offset " + d.offset());
            for (WalRepair.DroppedFile f : report.droppedFiles()) {
                out.println("dropped file " + f.file().getFileName() + " (" + f.size() + " bytes, " + f.records()
                        + " intact records" + (f.records() > 0 ? ", sequences " + f.firstSequence() + ".." + f.lastSequence() : "") + ")");
            }
            return EXIT_OK;
        }
    }

    private static String describe(WalReader.Damage d) {
        return (d.kind() == WalReader.DamageKind.TORN_TAIL ? "torn tail" : "corrupt") + " in " + d.file() + " at offset "
                + d.offset() + ": " + d.reason();
    }

    private static int status(WalReader.Scan scan) {
        if (scan.damage() == null) {
            return EXIT_OK;
        }
        return scan.damage().kind() == WalReader.DamageKind.TORN_TAIL ? EXIT_TORN : EXIT_CORRUPT;
    }
}
