package io.chronix.engine.wal;

import io.chronix.engine.error.WalIoException;
import io.chronix.engine.io.FileIO;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The offline repair behind {@code chronix-tool wal repair}: keeps every intact record before the
 * first damage and removes the rest — the damaged file from the bad offset on, and every later file —
 * reporting what it drops before the engine may open the log again.
 *
 * <p>Dropping the later files is deliberate even though they may hold intact records: sequence
 * numbers must run without a hole the engine cannot explain, and records after damage cannot be
 * known to be complete. The report lists them so an operator can copy them aside first.
 *
 * <p>Threading: run on a log no writer has open (the tool takes the directory lock).
 */
public final class WalRepair {

    private static final System.Logger LOG = System.getLogger(WalRepair.class.getName());

    /** One file dropped, with the intact records a scan of it alone found. */
    public record DroppedFile(Path file, long size, long records, long firstSequence, long lastSequence) {
    }

    /**
     * @param damage what was repaired; null if the log was clean and nothing changed
     * @param keptRecords intact records before the damage, all kept
     * @param keptLastSequence the highest kept sequence
     * @param droppedBytes bytes cut from the damaged file
     * @param droppedFiles later files deleted whole
     */
    public record Report(WalReader.Damage damage, long keptRecords, long keptLastSequence, long droppedBytes,
            List<DroppedFile> droppedFiles) {
        public boolean changed() {
            return damage != null;
        }
    }

    private WalRepair() {
    }

    public static Report repair(FileIO io, Path dir, WalMetrics metrics) {
        WalReader.Scan scan = WalReader.scan(io, dir, r -> { });
        WalReader.Damage damage = scan.damage();
        if (damage == null) {
            return new Report(null, scan.records(), scan.lastSequence(), 0, List.of());
        }
        if (damage.kind() == WalReader.DamageKind.TORN_TAIL) {
            WalLoader.cutTornTail(io, dir, damage, metrics);
            return new Report(damage, scan.records(), scan.lastSequence(), damage.droppedBytes(), List.of());
        }
        List<Path> files = WalReader.walFiles(io, dir);
        int at = files.indexOf(damage.file());
        assert at >= 0 : "the damaged file is one of the log's";
        List<DroppedFile> dropped = new ArrayList<>();
        for (Path later : files.subList(at + 1, files.size())) {
            dropped.add(describe(io, later));
        }
        LOG.log(Level.WARNING, "WAL repair: cutting corrupt file={0} at offset={1} ({2} bytes, reason: {3}) and dropping {4} later files",
                damage.file(), damage.offset(), damage.droppedBytes(), damage.reason(), dropped.size());
        try {
            if (damage.offset() < WalFormat.HEADER_SIZE) {
                io.delete(damage.file());
            } else {
                io.truncate(damage.file(), damage.offset());
            }
            for (DroppedFile d : dropped) {
                io.delete(d.file());
            }
            io.syncDirectory(dir);
        } catch (IOException e) {
            throw new WalIoException("repair", damage.file(), damage.offset(), e);
        }
        metrics.truncated(damage.droppedBytes() + dropped.stream().mapToLong(DroppedFile::size).sum());
        return new Report(damage, scan.records(), scan.lastSequence(), damage.droppedBytes(), List.copyOf(dropped));
    }

    private static DroppedFile describe(FileIO io, Path file) {
        long size;
        try {
            size = io.size(file);
        } catch (IOException e) {
            size = -1;
        }
        try {
            WalReader.Scan alone = WalReader.scanFiles(io, List.of(file), 0, r -> { });
            WalReader.FileSummary s = alone.files().getFirst();
            return new DroppedFile(file, size, s.records(), s.firstSequence(), s.lastSequence());
        } catch (RuntimeException unreadable) {
            return new DroppedFile(file, size, 0, -1, -1);
        }
    }
}
